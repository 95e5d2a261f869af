/**
 * A health rule for one kind, written once per engine language: Lua for Argo CD
 * (`resource.customizations.health.<group>_<Kind>` in `argocd-cm`, run by gopher-lua, a Lua 5.1
 * with only the base, table, package and a reduced os library open: `util/lua/lua.go` `runLua`),
 * and CEL for Flux (`spec.healthCheckExprs`, Flux >= 2.5, evaluated by fluxcd/pkg
 * `runtime/cel/status_evaluator.go` `Evaluate`: an `observedGeneration` that differs from
 * `metadata.generation` is InProgress first, then `inProgress`, `failed`, `current` in that
 * order, the first true wins and none true is InProgress; an evaluation error leaves the object
 * Unknown until the Kustomization's timeout).
 *
 * Every rule is written so that the only evaluation error is an object without `status` (a
 * custom resource before its controller's first write), which Flux then waits on like
 * InProgress. `has(status)` is not a CEL field test (the parser refuses it), so the rules never
 * use it. The fixtures in `test/health/` run each rule in a Lua 5.1 VM and a CEL evaluator.
 */
export interface HealthRule {
  readonly apiVersion: string;
  readonly kind: string;
  /** an Argo CD health script: reads the global `obj`, returns `{ status = ..., message = ... }` */
  readonly lua: string;
  readonly cel: CelHealthCheck;
}

/** The expressions of one Flux `healthCheckExprs` entry (without apiVersion and kind). */
export interface CelHealthCheck {
  readonly inProgress?: string;
  readonly failed?: string;
  readonly current: string;
}

/** A CEL string literal; the values we put in expressions are fixed words, quoted all the same. */
export const celString = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** `has(<list>) && <list>.exists(c, <condition type and status>)`, with every field tested first. */
export function celCondition(list: string, type: string, status?: string): string {
  const statusTest = status === undefined ? '' : ` && has(c.status) && c.status == ${celString(status)}`;
  return `has(${list}) && ${list}.exists(c, has(c.type) && c.type == ${celString(type)}${statusTest})`;
}
