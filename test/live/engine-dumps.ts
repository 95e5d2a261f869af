import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { fastYaml } from '../../src/yaml/fast-yaml';
import { compile } from '../../src/pipeline/compile';
import type { KubeObject } from '../../src/kube/kube-object';
import { runCli } from '../helpers/run-cli';

// `clusterset drift`, "engine synced": the delivery engine's own objects where the engine runs,
// as its controllers leave their status. Each row sets the status or spec a person or the
// controller would, and the expectation follows the engine's rule, not our names:
// - Flux kustomize-controller (api/v1/kustomization_types.go, internal/controller/
//   kustomization_controller.go `reconcile`): `spec.suspend` stops reconciling; Ready False with
//   ReconciliationFailed/BuildFailed/… is a failed apply (lastAttemptedRevision moves on,
//   lastAppliedRevision stays); HealthCheckFailed comes after the apply (status of what it
//   applied); Ready Unknown with Progressing is a reconcile in flight.
// - Argo CD (pkg/apis/application/v1alpha1/types.go, controller/appcontroller.go `autoSync`):
//   without `spec.syncPolicy.automated` nothing syncs an OutOfSync Application, unless an
//   ApplicationSet's RollingSync owns it; a failed sync of a revision is not tried again
//   automatically; an operation Running is a sync in flight.
//
// The rows are in drift-engine-hub-flux.test.ts, drift-engine-argocd.test.ts and
// drift-engine-own-flux.test.ts; this file holds what they share: the engine objects as their
// controllers leave them, the clusters' dumps, and a run of `clusterset drift`.

export type Condition = { type: string; status: string; reason: string; message: string };
export type Operation = { phase: string; message: string; syncResult?: { revision: string } };
/** The fields of a stored Kustomization or Application the rows set. */
export type Item = {
  kind: string;
  apiVersion: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; [k: string]: unknown };
  spec: { suspend?: boolean; syncPolicy: { automated?: { enabled?: boolean } } };
  status: {
    observedGeneration?: number;
    lastAppliedRevision?: string;
    lastAttemptedRevision?: string;
    conditions?: Condition[];
    sync?: { status: string; revision: string };
    health?: { status: string; message?: string };
    operationState?: Operation;
  };
};
export type List = { items: Item[] };
export interface Finding {
  kind: string;
  message: string;
  objects: string[];
}
export interface Report {
  drift: boolean;
  clusters: { clusterID: string; readable: boolean; findings: Finding[] }[];
}

export const REVISION = 'main@sha1:1111111111111111111111111111111111111111';
export const NEXT = 'main@sha1:2222222222222222222222222222222222222222';

/** An engine object as its controller leaves it after a good sync. */
export function stored(o: KubeObject): Item {
  const copy = structuredClone(o) as unknown as Item;
  copy.metadata.uid = `uid-${o.metadata.name}`;
  copy.metadata.generation = 1;
  if (o.kind === 'Kustomization')
    copy.status = {
      observedGeneration: 1,
      lastAppliedRevision: REVISION,
      lastAttemptedRevision: REVISION,
      conditions: [{ type: 'Ready', status: 'True', reason: 'ReconciliationSucceeded', message: `Applied revision: ${REVISION}` }],
    };
  else
    copy.status = {
      sync: { status: 'Synced', revision: REVISION },
      health: { status: 'Healthy' },
      operationState: { phase: 'Succeeded', message: 'successfully synced (all tasks run)', syncResult: { revision: REVISION } },
    };
  return copy;
}

export async function engineObjects(file: string, kind: string): Promise<KubeObject[]> {
  const { outputs } = await compile({ files: [file] });
  return Object.values(outputs[0]!.engines)
    .flat()
    .filter((o) => o.kind === kind);
}

/** A dump's text parsed once for the worker (rows read the same running dumps); callers take a copy. */
const PARSED = new Map<string, List>();
const parsedOnce = (text: string): List => {
  let list = PARSED.get(text);
  if (!list) PARSED.set(text, (list = parse(text) as List));
  return list;
};

/**
 * The running clusters' dumps, each parsed when a row first reads it: `write` puts back the ones no
 * row read as they were (a cluster dump is large, and most rows edit one cluster's or none).
 */
export class Dumps extends Map<string, List> {
  constructor(
    private readonly texts: ReadonlyMap<string, string>,
    private readonly tmp: string,
  ) {
    super();
  }
  override get(id: string): List | undefined {
    const text = this.texts.get(id);
    if (!super.has(id) && text !== undefined) super.set(id, structuredClone(parsedOnce(text)));
    return super.get(id);
  }
  write(): string {
    const dir = mkdtempSync(join(this.tmp, 'case-'));
    for (const [id, text] of this.texts) if (!super.has(id)) writeFileSync(join(dir, `${id}.yaml`), text);
    for (const [id, list] of this.entries()) writeFileSync(join(dir, `${id}.yaml`), fastYaml(list, 'as-is') ?? stringify(list));
    return dir;
  }
}

export async function drift(definition: string, dir: string, format = 'json') {
  const r = await runCli(['drift', definition, '--live', dir, '--format', format]);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, report: format === 'json' ? (JSON.parse(r.stdout) as Report) : undefined };
}
export const engineFindings = (report: Report) =>
  report.clusters.flatMap((c) => c.findings.filter((f) => f.kind === 'engine').map((f) => ({ cluster: c.clusterID, ...f })));

/** A scratch folder for a test file's dumps (its caller removes it after the file). */
export const scratch = (name: string): string => mkdtempSync(join(process.env.CLUSTERSET_TEST_TMPDIR ?? '/tmp', `${name}-`));
