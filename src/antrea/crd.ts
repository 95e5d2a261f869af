import type { Schema } from './schema';

/** One served version of a custom resource. */
export interface CrdVersion {
  readonly name: string;
  readonly served: boolean;
  readonly storage: boolean;
  readonly schema: Schema;
  readonly deprecated?: boolean;
  readonly deprecationWarning?: string;
  /** `status: {}` and/or scale paths, as in apiextensions.k8s.io/v1 */
  readonly subresources?: Record<string, unknown>;
  readonly printerColumns?: readonly PrinterColumn[];
}

export interface PrinterColumn {
  readonly name: string;
  readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  readonly jsonPath: string;
  readonly description?: string;
  readonly format?: string;
  readonly priority?: number;
}

/** Our model of one CustomResourceDefinition: everything but the prose. */
export interface CrdModel {
  readonly group: string;
  readonly kind: string;
  readonly plural: string;
  readonly singular: string;
  readonly listKind?: string;
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  readonly scope: 'Namespaced' | 'Cluster';
  readonly versions: readonly CrdVersion[];
  /** apiextensions `spec.conversion`; absent means strategy None */
  readonly conversion?: Record<string, unknown>;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  /** `spec.preserveUnknownFields` when upstream sets it explicitly */
  readonly preserveUnknownFields?: boolean;
}

export const crdName = (m: CrdModel): string => `${m.plural}.${m.group}`;

/** The apiextensions.k8s.io/v1 CustomResourceDefinition object for a model. */
export function crdManifest(m: CrdModel): Record<string, unknown> {
  const metadata: Record<string, unknown> = { name: crdName(m) };
  if (m.labels) metadata.labels = { ...m.labels };
  if (m.annotations) metadata.annotations = { ...m.annotations };
  const names: Record<string, unknown> = { kind: m.kind, plural: m.plural, singular: m.singular };
  if (m.listKind) names.listKind = m.listKind;
  if (m.shortNames) names.shortNames = [...m.shortNames];
  if (m.categories) names.categories = [...m.categories];
  const spec: Record<string, unknown> = {
    group: m.group,
    names,
    scope: m.scope,
    versions: m.versions.map((v) => {
      const out: Record<string, unknown> = { name: v.name, served: v.served, storage: v.storage };
      if (v.deprecated !== undefined) out.deprecated = v.deprecated;
      if (v.deprecationWarning) out.deprecationWarning = v.deprecationWarning;
      if (v.printerColumns) out.additionalPrinterColumns = v.printerColumns.map((c) => ({ ...c }));
      out.schema = { openAPIV3Schema: structuredClone(v.schema) };
      if (v.subresources) out.subresources = structuredClone(v.subresources);
      return out;
    }),
  };
  if (m.conversion) spec.conversion = structuredClone(m.conversion);
  if (m.preserveUnknownFields !== undefined) spec.preserveUnknownFields = m.preserveUnknownFields;
  return { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata, spec };
}
