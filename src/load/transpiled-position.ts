/**
 * Where a position of transpiled code came from in its TypeScript source, by the source map
 * TypeScript wrote for it (one source, no names needed): a thrown error's line and column in the
 * code the engine ran become an offset in the file the user wrote (`process` where it is used).
 */
export function originalOffset(sourceMap: string, source: string, line: number, column: number): number | undefined {
  let mappings: unknown;
  try {
    mappings = (JSON.parse(sourceMap) as { mappings?: unknown }).mappings;
  } catch {
    return undefined;
  }
  if (typeof mappings !== 'string') return undefined;
  const lines = mappings.split(';');
  // the fields after the first are relative to the previous segment's, across lines
  let sourceLine = 0;
  let sourceColumn = 0;
  let best: { line: number; column: number } | undefined;
  for (let l = 0; l < lines.length && l < line; l++) {
    let generated = 0;
    for (const segment of lines[l]!.split(',')) {
      if (segment === '') continue;
      const fields = decodeVlq(segment);
      if (fields === undefined) return undefined;
      generated += fields[0] ?? 0;
      if (fields.length < 4) continue;
      sourceLine += fields[2]!;
      sourceColumn += fields[3]!;
      // the last segment at or before the position on its line (columns are 1-based here, 0-based in the map)
      if (l === line - 1 && generated <= column - 1) best = { line: sourceLine, column: sourceColumn };
    }
  }
  if (best === undefined) return undefined;
  let offset = 0;
  for (let l = 0; l < best.line; l++) {
    const next = source.indexOf('\n', offset);
    if (next < 0) return undefined;
    offset = next + 1;
  }
  return offset + best.column;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** One segment's fields: base-64 digits of five bits, the sixth a continuation, the lowest bit of each value its sign. */
function decodeVlq(segment: string): number[] | undefined {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = BASE64.indexOf(char);
    if (digit < 0) return undefined;
    value += (digit & 31) * 2 ** shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    values.push(value % 2 === 1 ? -(value - 1) / 2 : value / 2);
    value = 0;
    shift = 0;
  }
  return values;
}
