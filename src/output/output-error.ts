import { relative, sep } from 'node:path';

/** A user-facing refusal (exit code 2), not a bug. */
export class OutputError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
    /** the file the refusal is about (a journal of the state folder), when not the output itself */
    readonly file?: string,
  ) {
    super(message);
  }
}

/** A path as the user typed it, relative to the working directory. */
export const displayPath = (p: string) => relative(process.cwd(), p).split(sep).join('/') || p;
