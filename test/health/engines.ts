import { parse } from '@marcbachmann/cel-js';
import { Lua } from 'wasmoon-lua5.1';
import type { CelHealthCheck } from '../../src/delivery/flux/health-cel';

/**
 * The engines' interpreters, as they run health rules.
 *
 * Argo CD (`util/lua/lua.go` `runLuaWithResourceActionParameters`): gopher-lua (Lua 5.1), a new
 * state per evaluation with `SkipOpenLibs`, then only the package, base and table libraries and a
 * safe os (`oslib_safe.go`: `time` and `date`); a script from `argocd-cm` gets every library only
 * with `resource.customizations.useOpenLibs.<group>_<Kind>: true` (`GetHealthScript`), a built-in
 * one always. `obj` is the object decoded into Lua tables (`decodeValue`: maps and lists become
 * tables, numbers Lua numbers, null nil), and `actionParams` an empty table. The result
 * (`ExecuteHealthLua`): a table is JSON-encoded and decoded into `{status, message}` (a field of
 * another type leaves the health
 * empty, as json.Unmarshal's type error does there); nil is an empty health; a status outside
 * Healthy, Progressing, Degraded, Suspended, Missing, Unknown is Unknown "Lua returned an invalid
 * health status"; any other value, or an error, fails the evaluation, which `GetResourceHealth`
 * turns into Unknown with the error as message.
 *
 * One Lua 5.1 VM per worker (wasmoon's Lua 5.1 build), each evaluation in a fresh environment
 * (`setfenv`) holding only those libraries, so no evaluation sees another's globals; without
 * the string library gopher-lua's strings have no methods, so the string metatable's `__index`
 * is cleared for the evaluation. Argo CD's 1-second timeout is not modelled.
 */
const VM = await Lua.create();
VM.doStringSync(`
local safe = { "assert", "error", "getmetatable", "ipairs", "next", "pairs", "pcall", "rawequal", "rawget",
  "rawset", "select", "setmetatable", "tonumber", "tostring", "type", "unpack", "xpcall", "loadstring",
  "getfenv", "setfenv", "_VERSION" }
local base = {}
for _, k in ipairs(safe) do base[k] = _G[k] end
base.print = function() end
local function copy(t) local c = {} for k, v in pairs(t) do c[k] = v end return c end
local compiled = {}
__argocd_scripts = {}
local SEP = string.char(1)
local stringIndex = getmetatable("").__index
function __argocd_health(script, obj, open)
  local fn = compiled[script]
  if fn == nil then
    local err
    fn, err = loadstring(script, "health.lua")
    if fn == nil then return "error" .. SEP .. err end
    compiled[script] = fn
  end
  local env = copy(base)
  env.table = copy(table)
  env.os = { time = os.time, date = os.date }
  if open then
    env.string = copy(string)
    env.math = copy(math)
    env.os = copy(os)
  end
  -- require finds what is open (and the safe os): gopher-lua's package library, nothing preloaded
  env.package = { loaded = { table = env.table, os = env.os, string = env.string, math = env.math }, preload = {} }
  env.require = function(name)
    local m = env.package.loaded[name]
    if m == nil then error("module " .. name .. " not found") end
    return m
  end
  env._G = env
  env.obj = obj
  -- runLuaWithResourceActionParameters sets it for every script, a health script's empty
  env.actionParams = {}
  setfenv(fn, env)
  if not open then getmetatable("").__index = nil end
  local ok, result = pcall(fn)
  getmetatable("").__index = stringIndex
  if not ok then return "error" .. SEP .. tostring(result) end
  if result == nil then return "empty" end
  if type(result) ~= "table" then return "error" .. SEP .. "expect table output from Lua script, not " .. type(result) end
  local status, message = rawget(result, "status"), rawget(result, "message")
  if (status ~= nil and type(status) ~= "string") or (message ~= nil and type(message) ~= "string") then return "empty" end
  return "table" .. SEP .. (status or "") .. SEP .. (message or "")
end
`);

const VALID = new Set(['Healthy', 'Progressing', 'Degraded', 'Suspended', 'Missing', 'Unknown']);

/** An Argo CD health: `status` is empty when the script gave none (Argo CD then treats the object as it would a Healthy one). */
export interface ArgoCdHealth {
  readonly status: string;
  readonly message?: string;
}

/** One health script on one object, as Argo CD evaluates it (above); `openLibs` for a built-in script or `useOpenLibs`. */
export function runArgoCdHealth(script: string, obj: unknown, openLibs = false): ArgoCdHealth {
  // a health is a function of the script and the object: the engine replay asks again and again
  const key = `${String(openLibs)}\u0000${script}\u0000${JSON.stringify(obj)}`;
  const known = RESULTS.get(key);
  if (known) return known;
  if (RESULTS.size > 10_000) RESULTS.clear();
  const health = evaluate(script, obj, openLibs);
  RESULTS.set(key, health);
  return health;
}

const RESULTS = new Map<string, ArgoCdHealth>();
/** Scripts by text, each sent to the VM once. */
const SCRIPTS = new Map<string, number>();

function evaluate(script: string, obj: unknown, openLibs: boolean): ArgoCdHealth {
  let id = SCRIPTS.get(script);
  if (id === undefined) {
    SCRIPTS.set(script, (id = SCRIPTS.size));
    VM.doStringSync(`__argocd_scripts[${id}] = ${luaString(script)}`);
  }
  let result: string;
  try {
    // one string back: a table would stay a reference into the VM
    result = VM.doStringSync(`return __argocd_health(__argocd_scripts[${id}], ${luaLiteral(obj)}, ${String(openLibs)})`) as string;
  } catch (e) {
    return { status: 'Unknown', message: (e as Error).message };
  }
  const [kind, status = '', message = ''] = result.split('\u0001');
  if (kind === 'error') return { status: 'Unknown', message: status };
  if (kind === 'empty') return { status: '' };
  if (!VALID.has(status)) return { status: 'Unknown', message: 'Lua returned an invalid health status' };
  return { status, ...(message !== '' && { message }) };
}

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
