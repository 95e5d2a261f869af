import type { Diagnostic } from './diagnostic';

const REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  EEXIST: 'already exists',
  ENOTEMPTY: 'directory not empty',
  ELOOP: 'too many levels of symbolic links (a link that loops)',
};

/** The errno code of a Node.js file-system error, if `err` is one. */
export const errnoCode = (err: unknown): string | undefined =>
  err instanceof Error && typeof (err as NodeJS.ErrnoException).code === 'string' ? (err as NodeJS.ErrnoException).code : undefined;

/**
 * A file-system problem at `path` as a diagnostic (code `file-system`): the path is the file, the
 * position is the top of it. `reason` is a Node.js error (its errno code is translated) or text.
 */
export function fileSystemDiagnostic(path: string, action: string, reason: unknown, hint?: string): Diagnostic {
  const code = errnoCode(reason);
  const why = code ? (REASONS[code] ?? code.toLowerCase()) : reason instanceof Error ? reason.message : String(reason);
  return {
    code: 'file-system',
    severity: 'error',
    message: `cannot ${action} "${path}": ${why}`,
    file: path,
    line: 1,
    column: 1,
    path: [],
    ...(hint ? { hint } : {}),
  };
}
