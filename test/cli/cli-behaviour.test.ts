import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { main } from '../../src/cli/main';
import { diagnosticsJson } from '../helpers/json';
import { notGatewayHa, withoutGatewayHa } from '../helpers/gateway-ha';
import { soakRows } from '../helpers/soak';
import { removeTree } from '../helpers/remove-tree';

// Every CLI behaviour in process (main(argv) with captured streams): no child processes here.
// One table has rows in the soak tier only (test/helpers/soak.ts); the rows kept say why.

const GOOD = 'clustersets/demo-clusterset.yaml';
const EKS = 'clustersets/eks-clusterset.yaml';
const BAD = 'test/fixtures/cli/typo.yaml';
const tmp = mkdtempSync(join(tmpdir(), 'clusterset-cli-behaviour-'));
afterAll(() => removeTree(tmp));
const at = (name: string, text?: string) => {
  const path = join(tmp, name);
  if (text !== undefined) writeFileSync(path, text);
  return path;
};

interface RunOptions {
  readonly tty?: boolean;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

async function run(argv: readonly string[], options: RunOptions = {}) {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: { write: (s: string) => (stdout += s), isTTY: options.tty ?? false },
    stderr: { write: (s: string) => (stderr += s), isTTY: options.tty ?? false },
    env: options.env ?? {},
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

const VERSION = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
// Node's parseArgs wording must never reach a user
const PARSE_ARGS_TEXT = /To specify a positional|ERR_PARSE_ARGS|Unknown option '|argument missing/;

describe('version, help and usage errors', () => {
  test.each([
    { argv: ['--version'], code: 0, stdout: `${VERSION}\n` },
    { argv: ['-V'], code: 0, stdout: `${VERSION}\n` },
    { argv: ['help'], code: 0, stdout: /^usage: clusterset <command>[\s\S]*validate[\s\S]*synth[\s\S]*schema[\s\S]*help \[command\]/ },
    { argv: ['--help'], code: 0, stdout: /^usage: clusterset <command>/ },
    { argv: ['help', 'synth'], code: 0, stdout: /^usage: clusterset synth \[options\] \[paths\.\.\.\][\s\S]*--out DIR[\s\S]*--check[\s\S]*--quiet, -q/ },
    { argv: ['synth', '--help'], code: 0, stdout: /^usage: clusterset synth / },
    { argv: ['validate', '-h'], code: 0, stdout: /^usage: clusterset validate [\s\S]*--format text\|json\|github/ },
    { argv: [], code: 2, stderr: /^usage: clusterset <command>/ },
    {
      argv: ['help', 'nope'],
      code: 2,
      stderr:
        'clusterset: unknown command "nope" (the commands are validate, synth, plan, connections, drift, import, status, schema, init, help)\nrun `clusterset help` for usage\n',
    },
    { argv: ['validat'], code: 2, stderr: /^clusterset: unknown command "validat": did you mean "validate"\?/ },
    { argv: ['frobnicate'], code: 2, stderr: /^clusterset: unknown command "frobnicate"/ },
    { argv: ['validate', '--bogus'], code: 2, stderr: 'clusterset: validate has no option --bogus\nrun `clusterset help validate` for usage\n' },
    { argv: ['validate', '--format=xml'], code: 2, stderr: /^clusterset: --format must be text, json or github, not "xml"\n/ },
    { argv: ['validate', '--check'], code: 2, stderr: /^clusterset: validate has no option --check\n/ },
    { argv: ['validate', '-x'], code: 2, stderr: /^clusterset: validate has no option -x\n/ },
    { argv: ['synth', '--out'], code: 2, stderr: 'clusterset: --out needs a value (DIR)\nrun `clusterset help synth` for usage\n' },
    { argv: ['synth', '--check=yes'], code: 2, stderr: /^clusterset: --check takes no value\n/ },
    { argv: ['synth', '--out', 'a', '--out', 'b'], code: 2, stderr: /^clusterset: --out is given twice\n/ },
    { argv: ['--quiet', 'validate'], code: 2, stderr: /^clusterset: expected a command before --quiet\n/ },
    { argv: ['--version', 'validate'], code: 2, stderr: /^clusterset: --version takes no arguments\n/ },
  ])('$argv → exit $code', async ({ argv, code, stdout, stderr }) => {
    const r = await run(argv);
    expect(r.code).toBe(code);
    if (stdout !== undefined) expect(r.stdout).toMatch(stdout);
    if (stderr !== undefined) expect(r.stderr).toMatch(stderr);
    if (stdout === undefined) expect(r.stdout).toBe('');
    if (stderr === undefined) expect(r.stderr).toBe('');
    expect(r.stdout + r.stderr).not.toMatch(PARSE_ARGS_TEXT);
  });

  test('-- ends the options: what follows is a path', async () => {
    const r = await run(['validate', '--format', 'json', '--', '--not-an-option.yaml']);
    expect(r.code).toBe(1);
    expect(diagnosticsJson(r.stdout).diagnostics).toMatchObject([{ code: 'file-system', file: '--not-an-option.yaml' }]);
  });
});

describe('file-system problems are diagnostics with a code and the path', () => {
  const file = at('file.yaml', readFileSync(GOOD, 'utf8'));
  mkdirSync(at('empty'));
  mkdirSync(at('foreign'));
  at('foreign/notes.txt', 'hand-written\n');

  test.each([
    { argv: ['validate', 'no/such/file.yaml'], path: 'no/such/file.yaml', message: 'cannot read "no/such/file.yaml": no such file or directory' },
    { argv: ['validate', `${file}/x.yaml`], path: `${file}/x.yaml`, message: `cannot read "${file}/x.yaml": a part of the path is not a directory` },
    { argv: ['validate', at('empty')], path: at('empty'), message: `cannot find definitions in "${at('empty')}": the directory holds none` },
    { argv: ['synth', '--out', at('foreign'), GOOD], path: at('foreign'), message: /^refusing to write into .*foreign: it is not empty/ },
    { argv: ['synth', '--out', file, GOOD], path: file, message: `cannot write into "${file}": not a directory` },
    { argv: ['synth', '--check', '--out', file, GOOD], path: file, message: `cannot compare with "${file}": not a directory` },
    { argv: ['synth', '--out', `${file}/out`, GOOD], path: `${file}/out`, message: `cannot write into "${file}/out": a part of the path is not a directory` },
  ])('$argv', async ({ argv, path, message }) => {
    const [command, ...rest] = argv;
    // a problem with the output directory is exit 2 (as a usage error), one with an input file 1
    const exit = command === 'synth' ? 2 : 1;
    const json = await run([command!, '--format', 'json', ...rest]);
    expect(json.code).toBe(exit);
    const [d, ...others] = notGatewayHa(diagnosticsJson(json.stdout).diagnostics);
    expect(others).toEqual([]);
    expect(d).toMatchObject({ code: 'file-system', severity: 'error', file: path, line: 1, column: 1 });
    expect(d!.message).toMatch(message);

    const text = await run(argv);
    expect(text.code).toBe(exit);
    expect(text.stderr).toContain(`${path}:1:1: error file-system: `);
    expect(text.stderr).not.toMatch(/ENOENT|ENOTDIR|\n\s+at /);
  });

  test('a missing path does not stop the other files from being checked', async () => {
    const r = await run(['validate', '--format', 'json', 'no/such/file.yaml', BAD]);
    expect(r.code).toBe(1);
    expect(notGatewayHa(diagnosticsJson(r.stdout).diagnostics).map((d) => d.code)).toEqual(['file-system', 'schema']);
  });
});

describe('TypeScript definitions', () => {
  test.each([
    {
      name: 'comma.ts',
      text: "export default {\n  apiVersion: 'antrea-clusterset/v1alpha1'\n  kind: 'ClusterSetDefinition',\n};\n",
      line: 3,
      column: 3,
      message: "',' expected",
      hint: 'TS1005',
    },
    {
      name: 'string.mts',
      text: "export default {\n  kind: 'ClusterSetDefinition,\n};\n",
      line: 2,
      column: 31,
      message: 'unterminated string literal',
      hint: 'TS1002',
    },
    { name: 'brace.cts', text: 'export default {\n  kind: 1,\n', line: 3, column: 1, message: "'}' expected", hint: 'TS1005' },
  ])('a syntax error in $name is located at its line and column with the whole message', async ({ name, text, line, column, message, hint }) => {
    const r = await run(['validate', '--format', 'json', at(name, text)]);
    expect(r.code).toBe(1);
    const diagnostics = diagnosticsJson(r.stdout).diagnostics;
    expect(diagnostics[0]).toMatchObject({ code: 'typescript-syntax', line, column, message });
    expect(diagnostics[0]!.hint).toContain(hint);
    expect(diagnostics.every((d) => d.code === 'typescript-syntax')).toBe(true);
  });

  test('.mts and .cts definitions are loaded, by name and from a directory', async () => {
    const files = ['test/fixtures/typescript/mts-clusterset.mts', 'test/fixtures/typescript/cts-clusterset.cts'];
    const valid = await run(['validate', ...files]);
    expect({ ...valid, stderr: withoutGatewayHa(valid.stderr) }).toEqual({ code: 0, stdout: '2 definitions valid\n', stderr: '' });
    const dir = await run(['validate', '--format', 'json', 'test/fixtures/typescript']);
    const checked = new Set(notGatewayHa(diagnosticsJson(dir.stdout).diagnostics).map((d) => d.file));
    // the broken fixtures report; the .mts and .cts ones are found and pass
    expect(checked).toEqual(new Set(['test/fixtures/typescript/broken.ts', 'test/fixtures/typescript/ts-typo.ts']));
  });
});

describe('results on stdout, diagnostics on stderr, --quiet, summary counts', () => {
  test.each([
    { argv: ['validate', GOOD, EKS], code: 0, stdout: '2 definitions valid\n', stderr: '' },
    { argv: ['validate', '--quiet', GOOD, EKS], code: 0, stdout: '', stderr: '' },
    { argv: ['validate', GOOD, BAD], code: 1, stdout: '', stderr: /error schema: unknown key "podCIDR"[\s\S]*\n1 error, \d+ warnings in 2 files\n$/ },
    { argv: ['validate', '-q', GOOD, BAD], code: 1, stdout: '', stderr: /\n1 error, \d+ warnings in 2 files\n$/ },
    { argv: ['validate', '--format', 'github', BAD], code: 1, stdout: /^::error file=test\/fixtures\/cli\/typo\.yaml,line=15,col=7,/, stderr: '' },
    {
      argv: ['synth', '--out', join(tmp, 'out'), GOOD],
      code: 0,
      stdout: /^wrote \d+ changed files into .*out \(\d+ files for 3 clusters; 3 bundles built\)\n$/,
      stderr: '',
    },
    { argv: ['synth', '--check', '--out', join(tmp, 'out'), GOOD], code: 0, stdout: /^.*out is up to date \(\d+ files, 3 clusters\)\n$/, stderr: '' },
    { argv: ['synth', '--check', '--quiet', '--out', join(tmp, 'out'), GOOD], code: 0, stdout: '', stderr: '' },
  ])('$argv', async ({ argv, code, stdout, stderr }) => {
    const r = await run(argv);
    expect(r.code).toBe(code);
    expect(r.stdout).toMatch(stdout);
    expect(typeof stderr === 'string' ? withoutGatewayHa(r.stderr) : r.stderr).toMatch(stderr);
  });
});

describe('colour only on a terminal with NO_COLOR unset', () => {
  const ESC = '\x1b[';
  test.each([
    { tty: true, env: {}, colour: true },
    { tty: true, env: { NO_COLOR: '' }, colour: true },
    { tty: true, env: { NO_COLOR: '1' }, colour: false },
    { tty: false, env: {}, colour: false },
  ])('tty $tty, env $env → colour $colour', async ({ tty, env, colour }) => {
    const r = await run(['validate', BAD], { tty, env });
    expect(r.code).toBe(1);
    expect(r.stderr.includes(ESC)).toBe(colour);
    if (colour) expect(r.stderr).toContain(`${ESC}1;31merror schema:${ESC}0m`);
    // the colourless text is the same either way
    expect(r.stderr.replace(/\x1b\[[0-9;]*m/g, '')).toBe((await run(['validate', BAD])).stderr);
  });
});

describe('each diagnostic links its page', () => {
  test('docs/rules/<code>.md of the installed package, as a path from the working directory, and the page exists', async () => {
    const r = await run(['validate', BAD]);
    const pages = [...withoutGatewayHa(r.stderr).matchAll(/^ {2}docs: (\S+)$/gm)].map((m) => m[1]!);
    expect(pages).toEqual(['docs/rules/schema.md']);
    expect(readFileSync(pages[0]!, 'utf8')).toMatch(/^# schema\n/);
  });
});

describe('the default folder named explicitly', () => {
  // `synth clustersets` compiles every definition just as `synth` does, so it also removes the
  // folder of a ClusterSet whose definition is gone; naming single files keeps the others
  // another ClusterSet on other clusters (cluster-in-two-definitions refuses two that share them)
  const extra = () =>
    at('extra.yaml', readFileSync(GOOD, 'utf8').replace('name: demo-clusterset', 'name: extra-clusterset').replaceAll('demo-cluster-', 'extra-cluster-'));

  // spellings of the folder: './clustersets/' (a leading ./ and a trailing slash, each normalized
  // to the plain name) and the folder named twice run in npm test; the plain name in the soak tier
  // too (test/helpers/soak.ts)
  test.each(soakRows([[['clustersets']], [['./clustersets/']], [['clustersets', 'clustersets']]], ([paths]) => paths.join(' ') !== 'clustersets'))(
    'synth %j removes the bundles of a deleted definition, as synth does',
    async (paths) => {
      const out = at(`out-${paths.join('-').replace(/[^a-z]/g, '')}`);
      expect((await run(['synth', '-q', '--out', out, GOOD, extra()])).code).toBe(0);
      expect(readdirSync(out)).toContain('extra-clusterset');
      // a definition given alone keeps the other ClusterSets' output
      expect((await run(['synth', '-q', '--out', out, GOOD])).code).toBe(0);
      expect(readdirSync(out)).toContain('extra-clusterset');
      const check = await run(['synth', '--check', '--out', out, ...paths]);
      expect(check.code).toBe(1);
      expect(check.stderr).toContain('extra-clusterset/');
      expect((await run(['synth', '-q', '--out', out, ...paths])).code).toBe(0);
      expect(readdirSync(out)).not.toContain('extra-clusterset');
      expect((await run(['synth', '--check', '--out', out])).code).toBe(0);
    },
  );
});
