import { readFileSync } from 'node:fs';
import type { Diagnostic } from '../../src/diagnostics/diagnostic';

/** What `--format json` prints. */
export interface DiagnosticsJson {
  readonly diagnostics: Diagnostic[];
  readonly errors: number;
  readonly warnings: number;
}

export const diagnosticsJson = (text: string): DiagnosticsJson => JSON.parse(text) as DiagnosticsJson;

/** The fields of a package.json the tests read. */
export interface PackageJson {
  readonly name?: string;
  readonly version?: string;
  readonly private?: boolean;
  readonly type?: string;
  readonly bin?: Record<string, string>;
  readonly scripts?: Record<string, string>;
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
}

export const readPackageJson = (path: string): PackageJson => JSON.parse(readFileSync(path, 'utf8')) as PackageJson;
