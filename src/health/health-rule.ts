/**
 * A health rule for one kind: what it decides is written beside it (src/health/), and each engine
 * writes it in its own language, Lua for Argo CD (delivery/argocd/health-lua.ts `luaOf`:
 * `resource.customizations.health.<group>_<Kind>` in `argocd-cm`, run by gopher-lua, a Lua 5.1
 * with only the base, table, package and a reduced os library open: `util/lua/lua.go` `runLua`),
 * and CEL for Flux (delivery/flux/health-cel.ts `celOf`: `spec.healthCheckExprs`, Flux >= 2.5, evaluated by fluxcd/pkg
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
}
