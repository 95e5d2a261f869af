import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ClusterSetSchema } from '../../src/model/clusterset';
import { effectiveClusters } from '../../src/model/effective';
import { clusterSetNotes } from '../../src/synth/notes';
import { shellQuote } from '../../src/text/shell-quote';
import { releaseFor } from '../../src/antrea/releases';
import { LATEST } from '../helpers/releases';
import { SHELLS } from '../helpers/stub-binaries';

const HOSTILE = ["x'; touch /tmp/p; echo '", '$(id)', '`id`', 'a b', "it's", '"quoted"', '\\', '-rf', '*', 'a\nb', '', '$HOME', 'ca.crt'];

describe('shellQuote', () => {
  it.each(HOSTILE)('%j reaches the command as one unchanged word', (value) => {
    const out = execFileSync('bash', ['-c', `printf '%s\\0' ${shellQuote(value)}`], { encoding: 'utf8' });
    expect(out).toBe(`${value}\0`);
  });

  // #49 item 13: every hostile payload above mixes several specials, so admitting any ONE of them
  // to the plain class left the suite green. One metacharacter at a time, each in a payload that a
  // shell reads otherwise when it is left bare: in a folder whose files a glob would match, in every
  // shell the printed-commands tests use, and `!` in an interactive bash (history expansion is what a
  // pasted command meets there).
  const cwd = mkdtempSync(join(tmpdir(), 'shell-quote-'));
  for (const f of ['x', 'ab', 'b']) writeFileSync(join(cwd, f), '');
  mkdirSync(join(cwd, 'home'));
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));
  const ONE_AT_A_TIME: readonly (readonly [string, string])[] = [
    [';', 'a;b'],
    ['&', 'a&b'],
    ['|', 'a|b'],
    ['<', 'a<b'],
    ['>', 'a>c'],
    ['(', 'a(b'],
    [')', 'a)b'],
    ['~', '~'],
    ['~', '~/x'],
    ['#', '#x'],
    ['?', '?'],
    ['?', 'a?'],
    ['tab', 'a\tb'],
    // a bracket or a brace alone is read as it is by every POSIX shell: a pattern needs both
    ['[ ]', '[x]'],
    ['{ }', '{a,b}'],
    ['{ }', 'a{b,c}'],
  ];
  const words = (shell: readonly string[], line: string) =>
    execFileSync(shell[0]!, [...shell.slice(1), '-c', line], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: join(cwd, 'home') } });
  it.each(SHELLS.flatMap((sh) => ONE_AT_A_TIME.map(([meta, value]) => ({ shell: sh.name, argv: sh.argv, meta, value }))))(
    '$shell: $meta alone ($value) reaches the command as one unchanged word',
    ({ argv, value }) => {
      expect(words(argv, `printf '%s\\0' ${shellQuote(value)}`)).toBe(`${value}\0`);
    },
  );

  it.each(['a!b', '!x', 'a!!'])('interactive bash: ! in %j is no history expansion', (value) => {
    // history expansion happens as an interactive shell reads a line: the commands are read from stdin
    const out = execFileSync('bash', ['--norc', '--noprofile', '-i'], {
      cwd,
      input: `echo warm-up\nprintf '<%s>' ${shellQuote(value)}\n`,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: join(cwd, 'home'), HISTFILE: '/dev/null', PS1: '' },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    expect(out).toContain(`<${value}>`);
  });

  it('quotes every printable ASCII character outside the plain class, each alone (a lone ], { or } is no pattern to sh, but to zsh and brace expansion it can be)', () => {
    const plain = /[A-Za-z0-9@%+=:,./_-]/;
    for (let c = 0x20; c < 0x7f; c++) {
      const ch = String.fromCharCode(c);
      if (plain.test(ch)) continue;
      expect(shellQuote(`a${ch}b`), JSON.stringify(ch)).toMatch(/^'.*'$/s);
      expect(words(['bash'], `printf '%s\\0' ${shellQuote(`a${ch}b`)}`)).toBe(`a${ch}b\0`);
    }
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
