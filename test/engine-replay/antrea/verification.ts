import type { ClusterSet } from '../../../src/model/clusterset';
import { exportsService } from '../../../src/model/exports-service';
import type { Fleet } from './controllers';

const VERIFY_JOB = /^antrea-clusterset-verify-[0-9a-f]{10}$/;

/**
 * The verification Jobs' reports: what each one's script printed, `PASS|FAIL <check>: <message>`
 * lines, by `cluster/namespace/job`. The Jobs run their script (job-runner.ts) against the
 * objects Antrea's modelled controllers write (antrea-multicluster.ts).
 */
export function verificationReports(fleet: Fleet): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [key, log] of fleet.jobLogs)
    if (VERIFY_JOB.test(key.split('/')[2]!))
      out.set(
        key,
        log.split('\n').filter((l) => /^(PASS|FAIL) /.test(l)),
      );
  return out;
}

/**
 * The applications' own delivery: each exported Service, with a Deployment behind it, in the
 * clusters that export it (its Namespace created if missing).
 */
export const deployApplications = (definition: ClusterSet) => (fleet: Fleet) => {
  const done: string[] = [];
  for (const c of fleet.clusters.values())
    for (const s of definition.spec.services) {
      if (!exportsService(s, c.clusterID)) continue;
      if (!c.namespaceExists(s.namespace)) c.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: s.namespace } });
      const labels = { app: s.name };
      c.put({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: s.name, namespace: s.namespace, generation: 1 },
        spec: { replicas: 1, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'app', image: 'app' }] } } },
      });
      c.put({ apiVersion: 'v1', kind: 'Service', metadata: { name: s.name, namespace: s.namespace }, spec: { selector: labels, ports: [{ port: 80 }] } });
      done.push(`${c.clusterID}:${s.namespace}/${s.name}`);
    }
  return `the applications' delivery deployed ${done.join(', ') || 'nothing'}`;
};
