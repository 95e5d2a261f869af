import { releaseFor, SUPPORTED_ANTREA_VERSIONS } from '../antrea/releases';
import type { AntreaRelease } from '../antrea/release';
import { MC_CONTROLLER } from '../antrea/workloads/constants';
import { parseImageReference } from '../antrea/workloads/images';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { CLUSTER_ID_ANNOTATION } from '../synth/objects/member-credentials';
import { dumpDiagnostic, type LiveDump, type LiveObject } from './read-dump';

/** One cluster as its dump shows it: its ID and role come from its ClusterSet objects. */
export interface LiveCluster {
  readonly dump: LiveDump;
  readonly clusterID: string;
  /** the leader's ClusterSet (no `leaders[0].server`), in the leader Namespace */
  readonly leaderSet?: LiveObject;
  /** the member's ClusterSet (`leaders[0].server` and `secret`), in the member Namespace */
  readonly memberSet?: LiveObject;
  /** objects by `group/Kind` */
  ofKind(kind: string): readonly LiveObject[];
  find(kind: string, namespace: string | undefined, name: string): LiveObject | undefined;
}

/** A ClusterSet as the dumps show it: the leader first, then the others in the order of the dumps. */
export interface LiveClusterSet {
  readonly name: string;
  readonly leader: LiveCluster;
  readonly clusters: readonly LiveCluster[];
  readonly release: AntreaRelease;
  /** the mc-controller image as the leader runs it: `<registry>/antrea-mc-controller:<version>`, perhaps `@<digest>` */
  readonly mcImage: string;
}

const MC_GROUP = 'multicluster.crd.antrea.io';
export const groupKind = (o: { apiVersion: string; kind: string }): string => {
  const slash = o.apiVersion.indexOf('/');
  return slash === -1 ? o.kind : `${o.apiVersion.slice(0, slash)}/${o.kind}`;
};

/** A value at a path of untrusted data, or undefined. */
export function field(o: unknown, ...path: readonly (string | number)[]): unknown {
  let v = o;
  for (const k of path) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<string | number, unknown>)[k];
  }
  return v;
}
export const text = (o: unknown, ...path: readonly (string | number)[]): string | undefined => {
  const v = field(o, ...path);
  return typeof v === 'string' ? v : undefined;
};

/** Items by each of their keys (undefined keys dropped), in input order. */
export function indexBy<T>(items: readonly T[], keys: (t: T) => readonly (string | undefined)[]): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const t of items)
    for (const k of keys(t)) {
      if (k === undefined) continue;
      const list = m.get(k);
      if (list) list.push(t);
      else m.set(k, [t]);
    }
  return m;
}

function liveCluster(dump: LiveDump, clusterID: string, leaderSet?: LiveObject, memberSet?: LiveObject): LiveCluster {
  const byKind = new Map<string, LiveObject[]>();
  const byId = new Map<string, LiveObject>();
  for (const l of dump.objects) {
    const gk = groupKind(l.object);
    let list = byKind.get(gk);
    if (!list) byKind.set(gk, (list = []));
    list.push(l);
    byId.set(`${gk}\0${l.object.metadata.namespace ?? ''}\0${l.object.metadata.name}`, l);
  }
  return {
    dump,
    clusterID,
    ...(leaderSet && { leaderSet }),
    ...(memberSet && { memberSet }),
    ofKind: (kind) => byKind.get(kind) ?? [],
    find: (kind, namespace, name) => byId.get(`${kind}\0${namespace ?? ''}\0${name}`),
  };
}

/**
 * Which cluster each dump is, and the ClusterSet they make. A user's mistake (a dump without a
 * ClusterSet, two leaders, a member the leader expects without a dump, a release the compiler
 * does not model) is a `live-dump` diagnostic at its line; undefined then. `absent`: members
 * known to have no dump (drift reports them unreadable), which the leader may name.
 */
export function readLiveClusterSet(dumps: readonly LiveDump[], diagnostics: Diagnostic[], absent: ReadonlySet<string> = new Set()): LiveClusterSet | undefined {
  const before = diagnostics.length;
  const { clusters, leader, name } = identifiedClusters(dumps, diagnostics);
  if (diagnostics.length > before) return undefined;
  if (!leader) {
    diagnostics.push(dumpDiagnostic(dumps[0] ?? { file: '<no dump>' }, {}, "no dump holds the leader's ClusterSet", "add the leader cluster's dump"));
    return undefined;
  }
  checkMembership(clusters, leader, absent, diagnostics);
  const { release, mcImage } = runningRelease(clusters, leader, diagnostics);
  if (diagnostics.length > before) return undefined;
  if (!release || !mcImage) {
    diagnostics.push(
      dumpDiagnostic(leader.dump, {}, `no ${MC_CONTROLLER} Deployment in the dumps, so the Antrea release is unknown`, 'the dump must include deployments'),
    );
    return undefined;
  }
  // the leader first, as definitions list it; the others in the order of the dumps
  const ordered = [leader, ...clusters.filter((c) => c !== leader)];
  return { name: name!.value, leader, clusters: ordered, release, mcImage };
}

/** The ClusterSet's name as the first dump that holds one gives it, to compare the others with. */
interface FirstName {
  value: string;
  dump: LiveDump;
}

/** Each dump's cluster, by its ClusterSets: one per cluster ID, and one leader. */
function identifiedClusters(dumps: readonly LiveDump[], diagnostics: Diagnostic[]): { clusters: LiveCluster[]; leader?: LiveCluster; name?: FirstName } {
  const clusters: LiveCluster[] = [];
  const byID = new Map<string, LiveCluster>();
  let leader: LiveCluster | undefined;
  const first: { name?: FirstName } = {};
  for (const dump of dumps) {
    const sets = dump.objects.filter((l) => groupKind(l.object) === `${MC_GROUP}/ClusterSet`);
    if (sets.length === 0) {
      diagnostics.push(
        dumpDiagnostic(
          dump,
          {},
          'the dump holds no ClusterSet, so which cluster it is cannot be told',
          'dump a cluster of the ClusterSet, with the command of `clusterset help import`',
        ),
      );
      continue;
    }
    const { leaderSet, memberSet } = clusterSetsOf(dump, sets, first, diagnostics);
    const ids = [leaderSet, memberSet].flatMap((s) => (s ? [text(s.object, 'spec', 'clusterID')] : []));
    const clusterID = ids[0];
    if (clusterID === undefined) {
      if (leaderSet || memberSet)
        diagnostics.push(dumpDiagnostic(dump, { index: (leaderSet ?? memberSet)!.index, path: ['spec'] }, 'the ClusterSet has no spec.clusterID'));
      continue;
    }
    if (ids.some((id) => id !== clusterID))
      diagnostics.push(
        dumpDiagnostic(
          dump,
          { index: memberSet!.index, path: ['spec', 'clusterID'] },
          `the member ClusterSet names cluster ${String(ids[1])}, the leader ClusterSet ${clusterID}`,
        ),
      );
    const same = byID.get(clusterID);
    if (same) {
      diagnostics.push(
        dumpDiagnostic(
          dump,
          { index: (leaderSet ?? memberSet)!.index, path: ['spec', 'clusterID'] },
          `cluster ${clusterID} is also dumped in ${same.dump.file}`,
          'give one dump per cluster',
        ),
      );
      continue;
    }
    const cluster = liveCluster(dump, clusterID, leaderSet, memberSet);
    byID.set(clusterID, cluster);
    if (leaderSet) {
      if (leader) {
        diagnostics.push({
          ...dumpDiagnostic(
            dump,
            { index: leaderSet.index },
            `two leaders: ${clusterID} and ${leader.clusterID} both hold a leader ClusterSet`,
            'a ClusterSet has one leader; import the dumps of one ClusterSet at a time',
          ),
          related: [{ ...dumpDiagnostic(leader.dump, { index: leader.leaderSet!.index }, ''), message: 'the other leader ClusterSet' }],
        });
        continue;
      }
      leader = cluster;
    }
    clusters.push(cluster);
  }
  return { clusters, ...(leader && { leader }), ...(first.name && { name: first.name }) };
}

/** A dump's leader and member ClusterSets (at most one of each, of a supported API version). */
function clusterSetsOf(
  dump: LiveDump,
  sets: readonly LiveObject[],
  first: { name?: FirstName },
  diagnostics: Diagnostic[],
): { leaderSet?: LiveObject; memberSet?: LiveObject } {
  let leaderSet: LiveObject | undefined;
  let memberSet: LiveObject | undefined;
  for (const s of sets) {
    if (s.object.apiVersion !== `${MC_GROUP}/v1alpha2`) {
      diagnostics.push(
        dumpDiagnostic(
          dump,
          { index: s.index, path: ['apiVersion'] },
          `ClusterSet ${s.object.metadata.name} is ${s.object.apiVersion}, of a release before v1.13`,
          `upgrade Antrea to one of ${SUPPORTED_ANTREA_VERSIONS.join(', ')} first`,
        ),
      );
      continue;
    }
    const isMemberSet = text(s.object, 'spec', 'leaders', 0, 'server') !== undefined;
    const earlier = isMemberSet ? memberSet : leaderSet;
    if (earlier) {
      diagnostics.push(
        dumpDiagnostic(
          dump,
          { index: s.index },
          `a second ${isMemberSet ? 'member' : 'leader'} ClusterSet in one cluster`,
          'a cluster holds at most one leader and one member ClusterSet',
        ),
      );
      continue;
    }
    if (isMemberSet) memberSet = s;
    else leaderSet = s;
    if (!first.name) first.name = { value: s.object.metadata.name, dump };
    else if (first.name.value !== s.object.metadata.name)
      diagnostics.push(
        dumpDiagnostic(
          dump,
          { index: s.index, path: ['metadata', 'name'] },
          `ClusterSet ${s.object.metadata.name} is not ${first.name.value}, which ${first.name.dump.file} holds`,
          'import the dumps of one ClusterSet at a time',
        ),
      );
  }
  return { ...(leaderSet && { leaderSet }), ...(memberSet && { memberSet }) };
}

/** Members point at this leader, and every member the leader knows has a dump. */
function checkMembership(clusters: readonly LiveCluster[], leader: LiveCluster, absent: ReadonlySet<string>, diagnostics: Diagnostic[]): void {
  for (const c of clusters) {
    const l = c.memberSet;
    const named = l && text(l.object, 'spec', 'leaders', 0, 'clusterID');
    if (l && named !== leader.clusterID)
      diagnostics.push(
        dumpDiagnostic(
          c.dump,
          { index: l.index, path: ['spec', 'leaders', 0, 'clusterID'] },
          `member ${c.clusterID} names leader ${String(named)}, not ${leader.clusterID}`,
        ),
      );
  }
  const leaderNamespace = leader.leaderSet!.object.metadata.namespace;
  const known = new Set([...clusters.map((c) => c.clusterID), ...absent]);
  for (const sa of leader.ofKind('ServiceAccount')) {
    const id = sa.object.metadata.annotations?.[CLUSTER_ID_ANNOTATION];
    if (sa.object.metadata.namespace !== leaderNamespace || id === undefined || known.has(id)) continue;
    known.add(id);
    diagnostics.push(
      dumpDiagnostic(
        leader.dump,
        { index: sa.index, path: ['metadata', 'annotations', CLUSTER_ID_ANNOTATION] },
        `the leader has credentials for member ${id}, whose dump is missing`,
        `add the dump of ${id}: without it the definition would drop the member and revoke its token`,
      ),
    );
  }
  for (const mca of leader.ofKind(`${MC_GROUP}/MemberClusterAnnounce`)) {
    const id = text(mca.object, 'clusterID');
    if (id === undefined || known.has(id)) continue;
    known.add(id);
    diagnostics.push(
      dumpDiagnostic(
        leader.dump,
        { index: mca.index, path: ['clusterID'] },
        `member ${id} is connected to the leader, but its dump is missing`,
        `add the dump of ${id}`,
      ),
    );
  }
}

/** One release: the mc-controllers' image tag, and the image as the leader runs it. */
function runningRelease(clusters: readonly LiveCluster[], leader: LiveCluster, diagnostics: Diagnostic[]): { release?: AntreaRelease; mcImage?: string } {
  let release: AntreaRelease | undefined;
  let mcImage: string | undefined;
  for (const c of clusters) {
    for (const d of c.ofKind('apps/Deployment')) {
      if (d.object.metadata.name !== MC_CONTROLLER) continue;
      const image = text(d.object, 'spec', 'template', 'spec', 'containers', 0, 'image');
      if (image === undefined) continue;
      const { tag, digest } = parseImageReference(image);
      const r = tag === undefined ? undefined : releaseFor(tag);
      const at = { index: d.index, path: ['spec', 'template', 'spec', 'containers', 0, 'image'] };
      if (tag === undefined)
        diagnostics.push(
          dumpDiagnostic(
            c.dump,
            at,
            `${MC_CONTROLLER} runs ${image}, pinned by ${digest === undefined ? 'no tag' : 'digest'} alone: the Antrea release cannot be told from it`,
            `give the image its release tag beside the digest, as <registry>/${MC_CONTROLLER}:<version>@sha256:…, and dump again`,
          ),
        );
      else if (!r)
        diagnostics.push(
          dumpDiagnostic(
            c.dump,
            at,
            `${MC_CONTROLLER} runs ${image}, a release the compiler does not model`,
            `the supported releases are ${SUPPORTED_ANTREA_VERSIONS.join(', ')}; upgrade first`,
          ),
        );
      else if (release && r !== release)
        diagnostics.push(
          dumpDiagnostic(
            c.dump,
            at,
            `${MC_CONTROLLER} runs ${r.version} here and ${release.version} elsewhere`,
            'a definition has one release: finish the upgrade before importing',
          ),
        );
      else {
        release = r;
        if (c === leader || mcImage === undefined) mcImage = image;
      }
    }
  }
  return { ...(release && { release }), ...(mcImage !== undefined && { mcImage }) };
}
