export { compile, type CompileOptions, type CompileResult } from './pipeline/compile';
export { defineClusterSet } from './model/define';
export type { ClusterSet, ClusterSetInput, Cluster } from './model/clusterset';
export type { Diagnostic, Severity, Location, RelatedLocation } from './diagnostics/diagnostic';
export type { DiagnosticCode } from './diagnostics/codes';
export { AntreaClusterSet, ClusterSetError, type AntreaClusterSetProps } from './construct/antrea-clusterset';
