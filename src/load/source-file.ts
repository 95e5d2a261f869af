import type { DataPath } from '../diagnostics/diagnostic';

/** A 1-based span in a source file. */
export interface Span {
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

/** A loaded definition: its raw data plus a way back from data paths to source positions. */
export interface SourceFile {
  /** path as given on the command line or relative to the working directory */
  readonly file: string;
  readonly text: string;
  readonly data: unknown;
  /**
   * The span of the value at `path` (or of its key, with `key`), falling back to the nearest
   * existing ancestor when the path does not exist (a missing required key).
   */
  locate(path: DataPath, options?: { key?: boolean }): Span;
}

/** Offsets to 1-based line/column by binary search over line starts (as yaml's LineCounter). */
export class LineIndex {
  private readonly starts: number[] = [0];
  constructor(text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }
  position(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.starts[lo]! + 1 };
  }
  span(start: number, end: number): Span {
    const a = this.position(start);
    const b = this.position(Math.max(start, end));
    return { line: a.line, column: a.column, endLine: b.line, endColumn: b.column };
  }
}
