import { beforeAll, describe, expect, test } from 'vitest';
import { kustomizationsIn } from './flux';
import { replay } from './replay';
import { compileDefinition, fleetFor, readDefinition, withBothEngines, type Compiled } from './scenario';
import type { Fleet } from './controllers';

/**
 * The verification never gates delivery (docs/verify.md): in Flux it is a unit of its own,
 * `<clusterset>-<clusterID>-verify`, after the cluster's last layer, that nothing depends on. A
 * verification that fails (an image nobody can pull, a member that never connects) leaves every
 * layer Ready, and with a hub Flux the members of a dual-role leader still start.
 */

/** A dual-role leader `hub` whose Flux is the hub: it applies the members' bundles through their kubeconfigs. */
const HUB = withBothEngines(readDefinition('test/fixtures/compile/delivery-hub/definition.yaml'));
const LAYERS = ['0-namespaces-crds', '1-rbac-config', '2-webhooks', '3-workloads', '4-resources'];

/** Every verification Job fails, whatever it checks (its image cannot be pulled, say). */
function verificationsFail(fleet: Fleet): Fleet {
  const outcome = fleet.jobOutcome;
  fleet.jobOutcome = (c, job) => (job.metadata.name.startsWith('antrea-clusterset-verify-') ? 'Failed' : outcome(c, job));
  return fleet;
}

describe('a failed verification holds no layer and no other cluster (Flux, hub)', () => {
  let compiled: Compiled;
  beforeAll(async () => {
    compiled = await compileDefinition(HUB);
  });

  test('every layer of every cluster is Ready; only each member’s verify unit is not', async () => {
    const fleet = verificationsFail(await fleetFor(HUB, compiled, { appNamespaces: true }));
    const r = replay({ engine: 'flux', ...compiled.forEngine('flux'), fleet, operator: true });
    const states = Object.fromEntries(Object.entries(r.flux).map(([name, s]) => [name, s.state]));
    const expected: Record<string, string> = {};
    for (const id of ['hub', 'edge-1', 'edge-2']) {
      for (const layer of LAYERS) expected[`delivery-hub-${id}-${layer}`] = 'Ready';
      expected[`delivery-hub-${id}-verify`] = 'Failed';
    }
    expect(states, r.log.join('\n')).toEqual(expected);
    // the verify unit waits for the cluster's last layer, and nothing waits for it
    for (const [name, unit] of Object.entries(r.units)) {
      const kinds = new Set(unit.objects.map((o) => o.kind));
      // (no Service in this definition: no ClusterRole for the applications' Namespaces)
      if (name.endsWith('-verify')) expect([...kinds].sort()).toEqual(['ConfigMap', 'Job', 'Role', 'RoleBinding', 'ServiceAccount']);
      else expect(kinds.has('Job')).toBe(false);
    }
    const { revision, folder } = compiled.forEngine('flux');
    const ks = kustomizationsIn(revision, folder);
    for (const k of ks) {
      if (k.name.endsWith('-verify')) expect(k.dependsOn).toEqual([k.name.replace(/-verify$/, '-4-resources')]);
      expect(k.dependsOn.filter((d) => d.endsWith('-verify'))).toEqual([]);
    }
  });
});
