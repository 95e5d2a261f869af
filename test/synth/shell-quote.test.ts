import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ClusterSetSchema } from '../../src/model/clusterset';
import { effectiveClusters } from '../../src/model/effective';
import { clusterSetNotes } from '../../src/synth/notes';
import { shellQuote } from '../../src/shell-quote';
import { releaseFor } from '../../src/antrea/releases';
import { LATEST } from '../helpers/releases';

const HOSTILE = ["x'; touch /tmp/p; echo '", '$(id)', '`id`', 'a b', "it's", '"quoted"', '\\', '-rf', '*', 'a\nb', '', '$HOME', 'ca.crt'];

describe('shellQuote', () => {
  it.each(HOSTILE)('%j reaches the command as one unchanged word', (value) => {
    const out = execFileSync('bash', ['-c', `printf '%s\\0' ${shellQuote(value)}`], { encoding: 'utf8' });
    expect(out).toBe(`${value}\0`);
  });

  it('leaves plain words readable', () => {
    expect(shellQuote('kube-system')).toBe('kube-system');
    expect(shellQuote('east-leader-token')).toBe('east-leader-token');
  });
});

describe('notes commands', () => {
  it('quote a hostile token Secret name and remote properties (validation refuses them too)', () => {
    const definition = ClusterSetSchema.parse({
      apiVersion: 'antrea-clusterset/v1alpha1',
      kind: 'ClusterSetDefinition',
      metadata: { name: 'cs' },
      spec: {
        antrea: { version: LATEST },
        leader: { clusterID: 'lead', server: 'https://lead:6443' },
        clusters: [
          { clusterID: 'lead', member: false },
          { clusterID: 'east', tokenSecret: { source: 'manual', name: "x'; touch /tmp/p; echo '" } },
          {
            clusterID: 'west',
            tokenSecret: {
              source: 'externalSecret',
              externalSecret: { secretStoreRef: { name: 'v' }, remoteRef: { key: 'k', caProperty: '"); system("id', tokenProperty: "t'; id; '" } },
            },
          },
        ],
      },
    });
    const notes = clusterSetNotes(definition, effectiveClusters(definition), releaseFor(definition.spec.antrea.version)!);
    expect(notes).toContain(`--arg name 'x'\\''; touch /tmp/p; echo '\\''' `);
    expect(notes).toContain(`--arg ca '"); system("id' --arg token 't'\\''; id; '\\'''`);
    // every sh block parses as shell (no unbalanced quote left by a value)
    for (const block of notes.matchAll(/```sh\n([\s\S]*?)```/g)) execFileSync('bash', ['-n'], { input: block[1] });
  });
});
