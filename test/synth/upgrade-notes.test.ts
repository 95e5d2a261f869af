import { describe, expect, test } from 'vitest';
import { ClusterSetSchema } from '../../src/model/clusterset';
import { effectiveClusters } from '../../src/model/effective';
import { clusterSetNotes } from '../../src/synth/notes';
import { releaseFor } from '../../src/antrea/releases';

const notes = (antrea: Record<string, unknown>) => {
  const definition = ClusterSetSchema.parse({
    apiVersion: 'antrea-clusterset/v1alpha1',
    kind: 'ClusterSetDefinition',
    metadata: { name: 'cs' },
    spec: {
      antrea,
      leader: { clusterID: 'north', namespace: 'mc-leader', server: 'https://n:6443' },
      clusters: [{ clusterID: 'north', member: false }, { clusterID: 'east' }],
    },
  });
  return clusterSetNotes(definition, effectiveClusters(definition), releaseFor(definition.spec.antrea.version)!);
};

describe('the "Upgrading from" section of the notes', () => {
  test('lists the steps and risks of the move, with commands for the leader Namespace', () => {
    const text = notes({ version: 'v2.7.0', upgradeFrom: 'v2.6.3' });
    const section = text.slice(text.indexOf('## Upgrading from v2.6.3'));
    expect(section).toMatch(/^## Upgrading from v2\.6\.3\n\nThese bundles are built for Antrea v2\.7\.0; the clusters run v2\.6\.3/);
    expect(section).toContain('   kubectl --context north delete serviceaccount antrea-mc-member-access-sa -n mc-leader --ignore-not-found');
    // numbered steps in order, then the risks
    const numbers = [...section.matchAll(/^(\d+)\. /gm)].map((m) => Number(m[1]));
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    expect(section.indexOf('What can go wrong')).toBeGreaterThan(section.lastIndexOf(`${numbers.length}. `));
  });

  test.each([
    ['no upgradeFrom', { version: 'v2.7.0' }],
    ['the same release', { version: 'v2.6.3', upgradeFrom: 'v2.6.3' }],
  ])('%s: no section', (_, antrea) => {
    expect(notes(antrea)).not.toContain('## Upgrading');
  });

  test('a move within v2.6 has no v2.7 credential steps', () => {
    const text = notes({ version: 'v2.6.3', upgradeFrom: 'v2.6.1' });
    expect(text).toContain('## Upgrading from v2.6.1');
    expect(text).not.toContain('antrea-mc-member-access-sa');
  });
});
