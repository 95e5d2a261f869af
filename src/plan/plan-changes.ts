import { plural } from '../text/plural';
import { isVerificationRun } from '../synth/parts/verify-job';
import { isGuarded } from '../delivery/prune-guards';
import { LABELS } from '../delivery/engine-names';
import { VERIFY_UNIT } from '../delivery/layer-paths';
import { planChecklist } from './checklist';
import { runTransitions } from '../validate/run-transitions';
import type { TransitionFinding } from '../validate/transition';
import { diffObjects, type ObjectChange } from './diff-objects';
import type { ChangeSubjects, CompiledRevision, OwnerCounts, Plan, PlanChange } from './plan';
import { definitionChanges } from './definition-changes';
import { clusterCount } from './plan-lines';
import { revokedByChecklist } from './token-rotation';

const GUARDED_REMOVAL =
  'Flux: its Kustomizations are guarded (kustomize.toolkit.fluxcd.io/prune: disabled), so they stay and report the missing path; nothing in the clusters is pruned. Argo CD: its Applications have no resources finalizer, so deleting them leaves the clusters as they are. Delete what you no longer want on purpose (docs/delivery.md).';

/** Compares two compiled revisions: domain-level changes first, then what the objects add. */
export function planChanges(base: CompiledRevision, head: CompiledRevision): Plan {
  const objectChanges = diffObjects(base.outputs, head.outputs);
  const changes: PlanChange[] = [];
  const renamedFrom = new Map<string, string>();

  // ClusterSets: added, removed, renamed (same definition file, another name)
  const headByFile = new Map([...head.definitions].map(([name, d]) => [d.file, name]));
  for (const [name, b] of base.definitions) {
    if (head.definitions.has(name)) continue;
    const renamed = headByFile.get(b.file);
    if (renamed !== undefined && !base.definitions.has(renamed)) {
      renamedFrom.set(renamed, name);
      changes.push({
        impact: 'destructive',
        clusterSet: renamed,
        text: `ClusterSet ${name} is renamed to ${renamed}: every cluster leaves ${name} and joins ${renamed}, and the bundles move to new folders`,
        details: [`the delivery objects of ${name} are removed. ${GUARDED_REMOVAL}`],
      });
    } else {
      changes.push({
        impact: 'destructive',
        clusterSet: name,
        text: `ClusterSet ${name} is removed with its ${plural(b.definition.spec.clusters.length, 'bundle')}`,
        details: [GUARDED_REMOVAL],
      });
    }
  }
  for (const [name, h] of head.definitions) {
    if (base.definitions.has(name) || renamedFrom.has(name)) continue;
    const ids = h.definition.spec.clusters.map((c) => c.clusterID);
    changes.push({ impact: 'safe', clusterSet: name, text: `ClusterSet ${name} is new: ${plural(ids.length, 'cluster')} (${ids.join(', ')})` });
  }
  const findings: TransitionFinding[] = [];
  for (const [name, h] of head.definitions) {
    const b = base.definitions.get(name) ?? base.definitions.get(renamedFrom.get(name) ?? '');
    if (!b) continue;
    const found = runTransitions(b.definition, h.definition);
    findings.push(...found);
    // a warning (member-removed-without-withdraw) is a diagnostic beside its change, not a refusal
    changes.push(...found.filter((f) => f.severity === 'error').map(refusal), ...definitionChanges(name, b.definition, h.definition));
  }

  // what only the objects show: restarts, and removals the domain lines above do not explain
  changes.push(...restarts(objectChanges));
  const explained = new Set(changes.filter((c) => c.impact === 'destructive').map((c) => c.clusterSet));
  changes.push(...removals(objectChanges, base, head, explained));
  const described = changes.length > 0;
  const rest = objectChanges.filter((c) => !(c.change === 'changed' && isRestart(c)));
  if (!described && rest.length > 0) {
    const byCs = groupBy(rest, (c) => c.clusterSet);
    for (const [cs, list] of byCs)
      changes.push({
        impact: 'safe',
        clusterSet: cs,
        text: `${plural(list.length, 'object')} ${list.length === 1 ? 'changes' : 'change'} without a restart`,
        details: list.slice(0, 20).map(objectLine),
        about: ownersAbout(list),
      });
  }
  const definitions = (r: CompiledRevision) => new Map([...r.definitions].map(([name, d]) => [name, d.definition]));
  return {
    changes: sortChanges(changes),
    checklist: planChecklist(base.definitions, head.definitions),
    findings,
    counts: counts(objectChanges),
    objectChanges,
    definitions: { base: definitions(base), head: definitions(head) },
  };
}

/** A change the clusters refuse, with the procedure that reaches the head instead. */
const refusal = (f: TransitionFinding): PlanChange => ({ impact: 'refused', clusterSet: f.clusterSet, text: f.message, steps: f.steps, code: f.code });

const sortChanges = (changes: PlanChange[]) =>
  changes
    .map((c, i) => ({ c, i }))
    .sort((x, y) => (x.c.clusterSet < y.c.clusterSet ? -1 : x.c.clusterSet > y.c.clusterSet ? 1 : x.i - y.i))
    .map((x) => x.c);

const objectLine = (c: ObjectChange): string =>
  `${c.change} ${c.kind} ${c.namespace ? `${c.namespace}/` : ''}${c.name} in ${c.owner}${c.paths.length > 0 ? ` (${c.paths.slice(0, 3).join(', ')}${c.paths.length > 3 ? ', …' : ''})` : ''}`;

function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const t of items) {
    const k = key(t);
    const list = m.get(k);
    if (list) list.push(t);
    else m.set(k, [t]);
  }
  return m;
}

/** The clusters (and engine folders) whose objects change. */
const ownersAbout = (changes: readonly ObjectChange[]): ChangeSubjects => ({
  clusters: [...new Set(changes.filter((c) => c.inBundle).map((c) => c.owner))],
  ...(changes.some((c) => !c.inBundle) && { delivery: true }),
});

const WORKLOADS = new Set(['Deployment', 'DaemonSet', 'StatefulSet']);
const isRestart = (c: ObjectChange) => WORKLOADS.has(c.kind) && c.paths.some((p) => p.startsWith('spec.template'));

/** Workloads whose Pod template (image, config checksum, args) changes, by workload, with the clusters. */
function restarts(changes: readonly ObjectChange[]): PlanChange[] {
  const byWorkload = groupBy(
    changes.filter((c) => c.change === 'changed' && isRestart(c)),
    (c) => `${c.clusterSet}\0${c.kind}\0${c.namespace ?? ''}/${c.name}`,
  );
  return [...byWorkload.values()].map((list) => {
    const c = list[0]!;
    const ids = list.map((x) => x.owner);
    const why = [...new Set(list.flatMap((x) => x.paths.filter((p) => p.startsWith('spec.template'))))].slice(0, 5);
    return {
      impact: 'rollout',
      clusterSet: c.clusterSet,
      text: `${c.kind} ${c.namespace!}/${c.name} restarts in ${clusterCount(ids)}`,
      details: why.map((p) => `changed: ${p}`),
      about: ownersAbout(list),
    };
  });
}

const CREDENTIAL_KINDS = new Set(['ServiceAccount', 'Secret', 'RoleBinding', 'ExternalSecret', 'SealedSecret']);
const DESTRUCTIVE_KINDS = new Set(['Namespace', 'CustomResourceDefinition', ...CREDENTIAL_KINDS]);
/** The verification's own ServiceAccount and bindings (verify-job.ts) grant only its reads: pruning them revokes nothing else. */
const destructiveRemoval = (c: ObjectChange): boolean => DESTRUCTIVE_KINDS.has(c.kind) && c.before?.metadata.labels?.[LABELS.unit] !== VERIFY_UNIT;

/**
 * Objects removed from bundles that stay: a Namespace, a CRD or a credential is destructive;
 * anything else removed is pruned by the engines (safe). ClusterSets already reported as removed,
 * renamed or losing a member explain their own removals.
 */
function removals(changes: readonly ObjectChange[], base: CompiledRevision, head: CompiledRevision, explained: ReadonlySet<string>): PlanChange[] {
  const remaining = (cs: string, owner: string) => head.outputs.some((o) => o.name === cs && o.bundles.some((b) => b.clusterID === owner));
  // Gateway Nodes are reported as Gateway moves; a verification run is replaced by the next one
  // a rotated member token's old Secret on the leader: its checklist guards it and revokes it once the member is Ready (token-rotation.ts)
  const revoked = (c: ObjectChange) =>
    c.kind === 'Secret' &&
    revokedByChecklist(base.definitions.get(c.clusterSet)?.definition, head.definitions.get(c.clusterSet)?.definition).has(`${c.namespace!}/${c.name}`);
  const removed = changes.filter(
    (c) =>
      c.change === 'removed' &&
      c.inBundle &&
      c.kind !== 'Node' &&
      !revoked(c) &&
      !isVerificationRun(c.kind, c.name) &&
      remaining(c.clusterSet, c.owner) &&
      base.definitions.has(c.clusterSet),
  );
  const out: PlanChange[] = [];
  for (const [cs, list] of groupBy(removed, (c) => c.clusterSet)) {
    const destructive = list.filter(destructiveRemoval);
    if (destructive.length > 0 && !explained.has(cs))
      out.push({
        impact: 'destructive',
        clusterSet: cs,
        text: `${plural(destructive.length, 'Namespace, CRD or credential object')} ${destructive.length === 1 ? 'leaves its bundle' : 'leave their bundles'}`,
        details: destructive.slice(0, 20).map(objectLine),
        about: ownersAbout(destructive),
      });
    const other = list.filter((c) => !destructiveRemoval(c));
    const guarded = other.filter((c) => isGuarded(c.before?.metadata.annotations));
    const pruned = other.filter((c) => !guarded.includes(c));
    if (pruned.length > 0)
      out.push({
        impact: 'safe',
        clusterSet: cs,
        text: `${plural(pruned.length, 'object')} ${pruned.length === 1 ? 'is pruned from its bundle' : 'are pruned from their bundles'}`,
        details: pruned.slice(0, 20).map(objectLine),
        about: ownersAbout(pruned),
      });
    if (guarded.length > 0)
      out.push({
        impact: 'destructive',
        clusterSet: cs,
        text: `${plural(guarded.length, 'guarded object')} ${guarded.length === 1 ? 'leaves its bundle and is orphaned' : 'leave their bundles and are orphaned'} (the engines never delete them)`,
        details: guarded.slice(0, 20).map(objectLine),
        about: ownersAbout(guarded),
      });
  }
  return out;
}

function counts(changes: readonly ObjectChange[]): OwnerCounts[] {
  const byOwner = new Map<string, OwnerCounts>();
  for (const c of changes) {
    const k = `${c.clusterSet}\0${c.owner}`;
    let o = byOwner.get(k);
    if (!o) byOwner.set(k, (o = { clusterSet: c.clusterSet, owner: c.owner, layers: {} }));
    const l = (o.layers[c.layer] ??= { added: 0, changed: 0, removed: 0 });
    l[c.change]++;
  }
  return [...byOwner.values()];
}
