import { describe, expect, test } from 'vitest';
import { ClusterSetSchema } from '../../src/model/clusterset';
import { effectiveClusters } from '../../src/model/effective';
import { clusterSetNotes } from '../../src/synth/notes';
import { releaseFor } from '../../src/antrea/releases';
import { LATEST, perMemberCredentialsMove } from '../helpers/releases';

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

const { from, to } = perMemberCredentialsMove();
const re = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('the "Upgrading from" section of the notes', () => {
  test('lists the steps and risks of the move, with commands for the leader Namespace', () => {
    const text = notes({ version: to, upgradeFrom: from });
    const section = text.slice(text.indexOf(`## Upgrading from ${from}`));
    expect(section).toMatch(new RegExp(`^## Upgrading from ${re(from)}\n\nThese bundles are built for Antrea ${re(to)}; the clusters run ${re(from)}`));
    expect(section).toContain('   kubectl --context north delete serviceaccount antrea-mc-member-access-sa -n mc-leader --ignore-not-found');
    // numbered steps in order, then the risks
    const numbers = [...section.matchAll(/^(\d+)\. /gm)].map((m) => Number(m[1]));
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    expect(section.indexOf('What can go wrong')).toBeGreaterThan(section.lastIndexOf(`${numbers.length}. `));
  });

  test.each([
    ['no upgradeFrom', { version: LATEST }],
    ['the same release', { version: from, upgradeFrom: from }],
  ])('%s: no section', (_, antrea) => {
    expect(notes(antrea)).not.toContain('## Upgrading');
  });

  test('a patch move before per-member credentials has no credential steps', () => {
    const earlier = from.replace(/\.\d+$/, '.0');
    expect(earlier).not.toBe(from);
    const text = notes({ version: from, upgradeFrom: earlier });
    expect(text).toContain(`## Upgrading from ${earlier}`);
    expect(text).not.toContain('antrea-mc-member-access-sa');
  });
});
