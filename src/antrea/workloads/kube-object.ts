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
 * The synth stage wraps each one in a cdk8s `ApiObject`.
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
