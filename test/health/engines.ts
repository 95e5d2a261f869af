import { parse } from '@marcbachmann/cel-js';
import { Lua } from 'wasmoon-lua5.1';
import type { CelHealthCheck } from '../../src/health/health-rule';

/**
 * The engines' interpreters, as they run health rules.
 *
 * Argo CD (`util/lua/lua.go` `runLua`): gopher-lua (Lua 5.1) with `SkipOpenLibs`, then only the
 * base, package and table libraries (and a reduced os, which no rule of ours uses, so it stays
 * closed here: a rule that reached for it fails); `obj` is the object decoded into Lua tables
 * (`decodeValue`: maps and lists become tables, numbers Lua numbers); the script's return value
 * is the health. No `string` and no `math`.
 */
export async function runArgoCdHealth(script: string, obj: unknown): Promise<{ status: string; message?: string }> {
  const lua = await Lua.create();
  try {
    // Lua 5.1 opens a library only through lua_call, so open all and close the others: their
    // globals, their `require` entries, and the string methods (gopher-lua without its string
    // library gives strings no metatable)
    await lua.doString(CLOSE_LIBRARIES);
    await lua.doString(`obj = ${luaLiteral(obj)}`);
    const result = (await lua.doString(script)) as { status: string; message?: string };
    return { status: result.status, ...(result.message != null && { message: result.message }) };
  } finally {
    lua.global.close();
  }
}

const CLOSED = ['string', 'math', 'io', 'os', 'debug', 'coroutine'];
const CLOSE_LIBRARIES = `getmetatable("").__index = nil
${CLOSED.map((l) => `${l} = nil\npackage.loaded.${l} = nil`).join('\n')}`;

/** A Lua 5.1 literal for JSON data, every string escaped byte by byte. */
export function luaLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'nil';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'nil';
  if (typeof value === 'string') return luaString(value);
  if (Array.isArray(value)) return `{${value.map(luaLiteral).join(', ')}}`;
  return `{${Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `[${luaString(k)}] = ${luaLiteral(v)}`)
    .join(', ')}}`;
}

const luaString = (s: string): string =>
  `"${[...Buffer.from(s, 'utf8')].map((b) => (b >= 0x20 && b < 0x7f && b !== 0x22 && b !== 0x5c ? String.fromCharCode(b) : `\\${b}`)).join('')}"`;

export type FluxStatus = 'InProgress' | 'Failed' | 'Current' | 'Unknown';

/**
 * Flux (fluxcd/pkg `runtime/cel/status_evaluator.go` `Evaluate`): an int `observedGeneration`
 * that differs from `metadata.generation` is InProgress before any expression; then
 * `inProgress`, `failed`, `current`, first true wins, none is InProgress. Expressions are only
 * parsed (not type-checked) and evaluated with the object's top-level fields as variables, so a
 * missing `status` is an evaluation error, which leaves the object Unknown. Integers are CEL
 * ints, as unstructured JSON gives int64.
 */
export function runFluxHealth(check: CelHealthCheck, obj: Record<string, unknown>): FluxStatus {
  const status = obj.status as Record<string, unknown> | undefined;
  const metadata = obj.metadata as Record<string, unknown> | undefined;
  const observed = status?.observedGeneration;
  if (Number.isInteger(observed) && Number.isInteger(metadata?.generation) && observed !== metadata?.generation) return 'InProgress';
  const activation = celValue(obj) as Record<string, unknown>;
  for (const [expr, result] of [
    [check.inProgress, 'InProgress'],
    [check.failed, 'Failed'],
    [check.current, 'Current'],
  ] as const) {
    if (expr === undefined) continue;
    let value: unknown;
    try {
      value = parse(expr)(activation);
    } catch {
      return 'Unknown';
    }
    if (typeof value !== 'boolean') return 'Unknown';
    if (value) return result;
  }
  return 'InProgress';
}

const celValue = (v: unknown): unknown =>
  typeof v === 'number' && Number.isInteger(v)
    ? BigInt(v)
    : Array.isArray(v)
      ? v.map(celValue)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, celValue(x)]))
        : v;

/** The parse step alone: Flux refuses a Kustomization whose expression does not parse. */
export const celParses = (expr: string): boolean => {
  try {
    parse(expr);
    return true;
  } catch {
    return false;
  }
};
