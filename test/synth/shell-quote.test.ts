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

/** Ends each command's output in a batch (no value here holds it). */
const END = '\x1e';

/**
 * What each command line prints, read by one shell process for the lot (a shell start per value
 * was most of this file's time): each line is parsed and run on its own by `eval` in a subshell of
 * its own, as `sh -c LINE` would parse and run it, so one line's syntax error, `exit` or variable
 * stays its own and the others still run. Each test then checks its own line's output.
 */
function eachLine(shell: readonly string[], lines: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): string[] {
  const out = execFileSync(shell[0]!, [...shell.slice(1), '-c', `for line in "$@"; do (eval "$line"); printf '${END}'; done`, 'sh', ...lines], {
    ...options,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const each = out.split(END);
  expect(each.pop(), 'the batch ends after its last line').toBe('');
  expect(each).toHaveLength(lines.length);
  return each;
}

/** The lines' outputs, one batch per shell and set of lines, run when a test first asks. */
function batched(run: () => string[]): (index: number) => string {
  let outputs: string[] | undefined;
  return (index) => (outputs ??= run())[index]!;
}

describe('shellQuote', () => {
  const printed = batched(() =>
    eachLine(
      ['bash'],
      HOSTILE.map((value) => `printf '%s\\0' ${shellQuote(value)}`),
    ),
  );
  it.each(HOSTILE)('%j reaches the command as one unchanged word', (value) => {
    expect(printed(HOSTILE.indexOf(value))).toBe(`${value}\0`);
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
  const words = (shell: readonly string[], lines: readonly string[]) =>
    eachLine(shell, lines, { cwd, env: { PATH: process.env.PATH, HOME: join(cwd, 'home') } });
  const alone = new Map(
    SHELLS.map((sh) => [
      sh.name,
      batched(() =>
        words(
          sh.argv,
          ONE_AT_A_TIME.map(([, value]) => `printf '%s\\0' ${shellQuote(value)}`),
        ),
      ),
    ]),
  );
  it.each(SHELLS.flatMap((sh) => ONE_AT_A_TIME.map(([meta, value], index) => ({ shell: sh.name, meta, value, index }))))(
    '$shell: $meta alone ($value) reaches the command as one unchanged word',
    ({ shell, value, index }) => {
      expect(alone.get(shell)!(index)).toBe(`${value}\0`);
    },
  );

  // history expansion happens as an interactive shell reads a line: the commands are read from
  // stdin, one line per value after a warm-up line (each value printed on a line of its own, so
  // an expansion of one line, or its "event not found", changes that value's output alone)
  const BANGS = ['a!b', '!x', 'a!!'];
  const interactive = batched(() =>
    execFileSync('bash', ['--norc', '--noprofile', '-i'], {
      cwd,
      input: `echo warm-up\n${BANGS.map((value) => `printf '<%s>\\n' ${shellQuote(value)}\n`).join('')}`,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: join(cwd, 'home'), HISTFILE: '/dev/null', PS1: '' },
      stdio: ['pipe', 'pipe', 'ignore'],
    }).split('\n'),
  );
  it.each(BANGS)('interactive bash: ! in %j is no history expansion', (value) => {
    expect(interactive(0)).toBe('warm-up');
    expect(interactive(1 + BANGS.indexOf(value))).toBe(`<${value}>`);
  });

  it('quotes every printable ASCII character outside the plain class, each alone (a lone ], { or } is no pattern to sh, but to zsh and brace expansion it can be)', () => {
    const plain = /[A-Za-z0-9@%+=:,./_-]/;
    const quoted = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)).filter((ch) => !plain.test(ch));
    for (const ch of quoted) expect(shellQuote(`a${ch}b`), JSON.stringify(ch)).toMatch(/^'.*'$/s);
    const out = words(
      ['bash'],
      quoted.map((ch) => `printf '%s\\0' ${shellQuote(`a${ch}b`)}`),
    );
    for (const [i, ch] of quoted.entries()) expect(out[i], JSON.stringify(ch)).toBe(`a${ch}b\0`);
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
