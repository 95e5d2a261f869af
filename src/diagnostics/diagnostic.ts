import type { DiagnosticCode } from './codes';

export type Severity = 'error' | 'warning';
export type DataPath = readonly (string | number)[];

/** A data path as every diagnostic writes it: `spec.clusters[0].gateways`. */
export const dataPathText = (path: DataPath): string => path.reduce<string>((out, p) => (typeof p === 'number' ? `${out}[${p}]` : out ? `${out}.${p}` : p), '');

/** A place in a source file; line and column are 1-based. */
export interface Location {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly endLine?: number;
  readonly endColumn?: number;
  readonly path: DataPath;
}

export interface RelatedLocation extends Location {
  readonly message: string;
}

/** One problem found in the input or in the output, as data; renderers turn it into text. */
export interface Diagnostic extends Location {
  readonly code: DiagnosticCode;
  readonly severity: Severity;
  /** lowercase start, no trailing period, values quoted */
  readonly message: string;
  readonly hint?: string;
  readonly related?: readonly RelatedLocation[];
}

export const hasErrors = (diagnostics: readonly Diagnostic[]): boolean => diagnostics.some((d) => d.severity === 'error');

/** Stable order for output: file, position, then code. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column || a.code.localeCompare(b.code) || a.message.localeCompare(b.message),
  );
}
