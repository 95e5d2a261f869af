import { basename, resolve } from 'node:path';
import { hasErrors, type Diagnostic } from '../diagnostics/diagnostic';
import type { ClusterSet } from '../model/clusterset';
import { memberTokenName } from '../model/default-names';
import { effectiveClusters } from '../model/effective';
import type { ObjectChange } from '../plan/diff-objects';
import type { Impact } from '../plan/plan';
import { GATEWAY_ANNOTATION } from '../synth/objects/gateway-node';
import { CLUSTER_ID_ANNOTATION } from '../synth/objects/member-credentials';
import { dumpClusterID, runLivePlan, type LivePlanResult } from './live-plan';
import { readContext } from './read-context';
import { dumpDiagnostic, loadDumps, type LiveDump } from './read-dump';

/**
 * What a finding is about, in ClusterSet words. The first six are drift: a running object the next
 * sync would change. `unreadable` and `not-compared` say what was not looked at: never a match.
 */
export type DriftKind = 'membership' | 'gateway' | 'export' | 'policy' | 'credentials' | 'antrea' | 'unreadable' | 'not-compared';
export const DRIFT_KINDS: ReadonlySet<DriftKind> = new Set(['membership', 'gateway', 'export', 'policy', 'credentials', 'antrea']);

export interface DriftFinding {
  readonly kind: DriftKind;
  readonly message: string;
  /** the objects behind the line: `<added|changed|missing> <Kind> <namespace/name> (<paths>)` */
  readonly objects: readonly string[];
}

export interface DriftCluster {
  readonly clusterSet: string;
  readonly clusterID: string;
  /** false: no dump of it could be read; never taken as matching */
  readonly readable: boolean;
  readonly findings: readonly DriftFinding[];
}

export interface DriftReport {
  /** some readable cluster drifts */
  readonly drift: boolean;
  /** every cluster of every definition was read and compared */
  readonly complete: boolean;
  readonly clusters: readonly DriftCluster[];
  /** what the next sync does, in plan's words (docs/plan.md) */
  readonly nextSync: readonly { readonly clusterSet: string; readonly impact: Impact; readonly text: string }[];
}

export interface DriftResult {
  readonly report: DriftReport;
  /** the definitions' and the dumps' diagnostics; an error is exit 1 */
  readonly diagnostics: readonly Diagnostic[];
  readonly sources: ReadonlyMap<string, string>;
}

export interface DriftOptions {
  readonly cwd: string;
  readonly paths: readonly string[];
  /** what `--live` names: dump files, directories of dumps, `context:NAME` */
  readonly live: readonly string[];
}

/** The name a person gave an input of one cluster: `context:NAME` → NAME, `dir/<name>.yaml` → name. */
const inputName = (file: string) => (file.startsWith('context:') ? file.slice('context:'.length) : basename(file).replace(/\.(ya?ml|json)$/, ''));

/** Each input read on its own: the dumps that read cleanly, and why the others could not be read, by input name. */
function readInputs(options: DriftOptions) {
  const dumps: LiveDump[] = [];
  const failed = new Map<string, string>();
  const problems: Diagnostic[] = [];
  for (const input of options.live) {
    const found: Diagnostic[] = [];
    const read = input.startsWith('context:')
      ? [readContext(input.slice('context:'.length), found) ?? []].flat()
      : loadDumps([resolve(options.cwd, input)], found);
    const bad = new Set(found.filter((d) => d.severity === 'error').map((d) => d.file));
    dumps.push(...read.filter((d) => !bad.has(d.file)));
    for (const d of found) if (d.severity === 'error' && !failed.has(inputName(d.file))) failed.set(inputName(d.file), `${d.file}: ${d.message}`);
    // the reasons are the report's; kept as warnings, they do not stop the comparison of the others
    problems.push(...found.map((d) => ({ ...d, severity: 'warning' as const })));
  }
  return { dumps, failed, problems };
}

/**
 * `clusterset drift`: plan --live's comparison (live-plan.ts) of what runs with the definitions,
 * cluster by cluster. A cluster without a readable dump is unreadable and left out of the
 * comparison of the others; without its leader's dump a ClusterSet is not compared at all.
 */
export async function runDrift(options: DriftOptions): Promise<DriftResult> {
  const { dumps, failed, problems } = readInputs(options);
  // a dump without a ClusterSet is a cluster out of it (it left, or never joined): found by its name
  const joined = dumps.filter((d) => dumpClusterID(d) !== undefined);
  const outside = new Map(dumps.filter((d) => dumpClusterID(d) === undefined).map((d) => [inputName(d.file), d]));
  const live = await runLivePlan({ cwd: options.cwd, paths: options.paths, dumps: [], read: joined, partial: true });
  const diagnostics = [...problems, ...live.diagnostics];
  const read: Read = { live, joined, outside, failed, inputs: options.live };
  const clusters = live.definitions.flatMap((d) => clustersOf(d, read));
  const nextSync = live.definitions.flatMap((d) => {
    const missing = live.absent.get(d.metadata.name) ?? new Set<string>();
    // plan's lines about clusters without a dump alone are not what runs
    return (live.plan?.changes ?? [])
      .filter((c) => c.clusterSet === d.metadata.name && !(c.about?.clusters?.length && c.about.clusters.every((id) => missing.has(id))))
      .map((c) => ({ clusterSet: c.clusterSet, impact: c.impact, text: c.text }));
  });
  for (const [name, d] of outside)
    if (!clusters.some((c) => c.clusterID === name))
      diagnostics.push(
        dumpDiagnostic(
          d,
          {},
          'the dump holds no ClusterSet, and its name is no cluster of the definitions',
          'name the dump <clusterID>.yaml, or dump a cluster of the ClusterSet',
        ),
      );
  const findings = clusters.flatMap((c) => c.findings);
  const report: DriftReport = {
    drift: findings.some((f) => DRIFT_KINDS.has(f.kind)),
    complete: !hasErrors(diagnostics) && findings.every((f) => f.kind !== 'unreadable' && f.kind !== 'not-compared'),
    clusters,
    nextSync,
  };
  return { report, diagnostics, sources: live.sources };
}

/** What was read: the comparison, the dumps with and without a ClusterSet, why inputs failed, the inputs. */
interface Read {
  readonly live: LivePlanResult;
  readonly joined: readonly LiveDump[];
  readonly outside: ReadonlyMap<string, LiveDump>;
  readonly failed: ReadonlyMap<string, string>;
  readonly inputs: readonly string[];
}

/** Each cluster of a definition, then each cluster running in its ClusterSet that it does not list. */
function clustersOf(definition: ClusterSet, { live, joined, outside, failed, inputs }: Read): DriftCluster[] {
  const cs = definition.metadata.name;
  const effective = effectiveClusters(definition);
  const running = joined.filter((d) => d.objects.some((l) => l.object.kind === 'ClusterSet' && l.object.metadata.name === cs)).map(dumpClusterID);
  const changes = live.plan?.objectChanges.filter((c) => c.clusterSet === cs && c.inBundle) ?? [];
  const entry = (clusterID: string, readable: boolean, findings: DriftFinding[]): DriftCluster => ({ clusterSet: cs, clusterID, readable, findings });
  const listed = effective.map(({ clusterID: id, isMember, cluster }) => {
    const out = outside.get(id);
    if (!running.includes(id) && out) {
      const namespace = isMember ? cluster.namespace : definition.spec.leader.namespace;
      const message = `${id} is not in ClusterSet ${cs}: its dump holds no ClusterSet (it left, or never joined)`;
      return entry(id, true, [{ kind: 'membership', message, objects: [`missing ClusterSet ${namespace}/${cs} (${out.file})`] }]);
    }
    if (!running.includes(id)) {
      const why = failed.get(id) ?? `no input holds its dump (${inputs.join(', ')})`;
      return entry(id, false, [{ kind: 'unreadable', message: `${id} could not be read: ${why}`, objects: [] }]);
    }
    if (!live.plan || live.uncompared.has(cs)) {
      const why = live.uncompared.has(cs)
        ? `the leader ${definition.spec.leader.clusterID} could not be read, and a ClusterSet is compared from its leader's dump`
        : 'the dumps could not be compared (see the diagnostics)';
      return entry(id, true, [{ kind: 'not-compared', message: `${id} was read but not compared: ${why}`, objects: [] }]);
    }
    return entry(
      id,
      true,
      findingsOf(
        id,
        definition,
        changes.filter((c) => c.owner === id),
      ),
    );
  });
  const unlisted = running.flatMap((id) =>
    id === undefined || effective.some((c) => c.clusterID === id)
      ? []
      : [
          entry(id, true, [
            {
              kind: 'membership',
              message: `${id} runs in ClusterSet ${cs}, but the definition does not list it`,
              objects: [`running ClusterSet ${cs} on ${id}`],
            },
          ]),
        ],
  );
  return [...listed, ...unlisted];
}

const where = (c: { namespace?: string; name: string }) => (c.namespace === undefined ? c.name : `${c.namespace}/${c.name}`);
const objectLine = (c: ObjectChange) =>
  `${c.change === 'added' ? 'missing' : c.change === 'removed' ? 'extra' : 'changed'} ${c.kind} ${where(c)}${c.paths.length > 0 ? ` (${c.paths.join(', ')})` : ''}`;
const CREDENTIAL_KINDS = new Set(['ServiceAccount', 'Secret', 'RoleBinding', 'ExternalSecret', 'SealedSecret']);

/**
 * The names of the members' credentials a cluster holds, as the definition gives them: on the
 * leader each member's ServiceAccount, token Secret and RoleBinding (`leaderCredentials`, else
 * `<clusterID>-member-token`); on a member the Secret its ClusterSet reads (`tokenSecret.name`).
 */
function credentialNames(definition: ClusterSet, clusterID: string): Set<string> {
  const names = new Set<string>();
  for (const c of effectiveClusters(definition)) {
    if (c.clusterID === clusterID && c.isMember) names.add(c.tokenSecretName);
    if (clusterID !== definition.spec.leader.clusterID || !c.isMember) continue;
    const d = memberTokenName(c.clusterID);
    const n = c.leaderCredentials;
    for (const name of [n?.serviceAccount ?? d, n?.secret ?? d, n?.roleBinding ?? d]) names.add(name);
  }
  return names;
}
const MEMBERSHIP_KINDS = new Set(['ClusterSet', 'MemberClusterAnnounce']);

/** What an object is about, in ClusterSet words; `credentials`: the names of members' credentials on its cluster. */
function kindOf(c: ObjectChange, credentials: ReadonlySet<string>): DriftKind {
  const object = c.after ?? c.before;
  if (c.kind === 'Node') return 'gateway';
  if (MEMBERSHIP_KINDS.has(c.kind)) return 'membership';
  if (c.kind === 'ServiceExport') return 'export';
  if (c.kind === 'ResourceExport' || c.kind === 'Tier') return 'policy';
  if (CREDENTIAL_KINDS.has(c.kind) && (credentials.has(c.name) || object?.metadata.annotations?.[CLUSTER_ID_ANNOTATION] !== undefined)) return 'credentials';
  return 'antrea';
}

/** One line per object the next sync changes (one for all of Antrea's own objects), in ClusterSet words. */
function findingsOf(id: string, definition: ClusterSet, changes: readonly ObjectChange[]): DriftFinding[] {
  const cs = definition.metadata.name;
  const credentials = credentialNames(definition, id);
  const out: DriftFinding[] = [];
  const antrea = changes.filter((c) => kindOf(c, credentials) === 'antrea');
  for (const c of changes) {
    const kind = kindOf(c, credentials);
    if (kind === 'antrea') continue;
    const missing = c.change === 'added';
    const differs = `differs from git${c.paths.length > 0 ? ` at ${c.paths.join(', ')}` : ''}`;
    const message = {
      gateway: missing
        ? `Gateway Node ${c.name} of ${id} does not exist`
        : c.paths.some((p) => p.includes(GATEWAY_ANNOTATION))
          ? c.before?.metadata.annotations?.[GATEWAY_ANNOTATION] === undefined
            ? `the Gateway of ${id} is not active: Node ${c.name} lacks the annotation ${GATEWAY_ANNOTATION}, so antrea-mc-controller does not make it a Gateway`
            : `the Gateway of ${id} is not as git says: Node ${c.name}'s annotation ${GATEWAY_ANNOTATION} ${differs}`
          : `Gateway Node ${c.name} of ${id} ${differs}`,
      membership: missing
        ? `${id} is not connected to ClusterSet ${cs}: its ${c.kind} ${where(c)} is missing`
        : c.paths.every((p) => p.startsWith('metadata.'))
          ? `${id}'s ${c.kind} ${where(c)} ${differs}`
          : `${id}'s ${c.kind} ${where(c)} ${differs}: it is not connected as git says`,
      export: missing
        ? `Service ${where(c)} is not exported from ${id} (no ServiceExport): the other members do not import it from ${id}`
        : `the export of Service ${where(c)} from ${id} ${differs}`,
      policy:
        c.kind === 'Tier'
          ? `Tier ${c.name} on ${id} ${missing ? 'is missing: replicated policies in it are not enforced' : differs}`
          : missing
            ? `policy export ${where(c)} is missing on the leader: the policy is not replicated to the members`
            : `policy export ${where(c)} ${differs}: the members enforce what runs, not what git says`,
      credentials: missing ? `credentials missing on ${id}: ${c.kind} ${where(c)}` : `credentials on ${id} differ from git: ${c.kind} ${where(c)} ${differs}`,
    }[kind as Exclude<DriftKind, 'antrea' | 'unreadable' | 'not-compared'>];
    out.push({ kind, message, objects: [objectLine(c)] });
  }
  if (antrea.length > 0)
    out.push({
      kind: 'antrea',
      message: `Antrea on ${id} is not as git installs it: ${antrea.length} object${antrea.length === 1 ? '' : 's'} the next sync changes`,
      objects: antrea.map(objectLine),
    });
  return out;
}
