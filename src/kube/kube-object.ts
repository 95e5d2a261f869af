/** JSON-compatible values: what a manifest may hold once serialized. */
export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | readonly JsonValue[] | { readonly [key: string]: JsonValue };
export type JsonObject = { readonly [key: string]: JsonValue };

export interface ObjectMeta {
  readonly name: string;
  readonly namespace?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly finalizers?: readonly string[];
}

/**
 * A plain Kubernetes object (L1): exactly the fields we set, nothing defaulted.
 * The one object shape of the compiler, from Antrea's workloads to the layout stage; synth hands each to cdk8s.
 */
export interface KubeObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: ObjectMeta;
  readonly [field: string]: unknown;
}

/** `Kind namespace/name` or `Kind name`: how tests and diagnostics name an object. */
export const objectRef = (o: KubeObject): string =>
  o.metadata.namespace ? `${o.kind} ${o.metadata.namespace}/${o.metadata.name}` : `${o.kind} ${o.metadata.name}`;

/** kind/namespace/name: unique within one bundle (output-collision). */
export const objectKey = (o: KubeObject): string => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/** A typed model object (`@kubernetes-models/*` interfaces) as the plain data the layout stage handles. */
export const asKubeObject = (o: { apiVersion: string; kind: string; metadata?: object }): KubeObject => o as unknown as KubeObject;
