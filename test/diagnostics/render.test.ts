import { describe, expect, test } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics/diagnostic';
import { renderGithub, renderJson, renderText } from '../../src/diagnostics/render';
import { workflowCommands } from '../helpers/ci-log';

const text = 'spec:\n  clusters:\n    - clusterID: east\n      podCIDRs: [10.244.16.0/20]\n    - clusterID: west\n      podCIDRs: [10.244.16.0/20]\n';
const overlap: Diagnostic = {
  code: 'pod-cidr-overlap',
  severity: 'error',
  message: 'pod CIDR "10.244.16.0/20" of cluster "west" overlaps "10.244.16.0/20" of cluster "east"',
  file: 'clustersets/demo.yaml',
  line: 6,
  column: 18,
  endLine: 6,
  endColumn: 32,
  path: ['spec', 'clusters', 1, 'podCIDRs', 0],
  related: [
    {
      message: 'cluster "east" declares "10.244.16.0/20" here',
      file: 'clustersets/demo.yaml',
      line: 4,
      column: 18,
      endLine: 4,
      endColumn: 32,
      path: ['spec', 'clusters', 0, 'podCIDRs', 0],
    },
  ],
  hint: 'Pod CIDRs of members must be disjoint with Pod-to-Pod connectivity',
};
const warning: Diagnostic = {
  code: 'member-count',
  severity: 'warning',
  message: 'only one member',
  file: 'clustersets/demo.yaml',
  line: 2,
  column: 3,
  path: ['spec', 'clusters'],
};

describe('renderers', () => {
  test('text: GNU line, code frame with caret, related location and hint', () => {
    expect(renderText([overlap, warning], new Map([['clustersets/demo.yaml', text]]))).toMatchInlineSnapshot(`
      "clustersets/demo.yaml:2:3: warning member-count: only one member
        1 | spec:
        2 |   clusters:
          |   ^
      clustersets/demo.yaml:6:18: error pod-cidr-overlap: pod CIDR "10.244.16.0/20" of cluster "west" overlaps "10.244.16.0/20" of cluster "east"
        5 |     - clusterID: west
        6 |       podCIDRs: [10.244.16.0/20]
          |                  ^^^^^^^^^^^^^^
      clustersets/demo.yaml:4:18: note: cluster "east" declares "10.244.16.0/20" here
        3 |     - clusterID: east
        4 |       podCIDRs: [10.244.16.0/20]
          |                  ^^^^^^^^^^^^^^
        hint: Pod CIDRs of members must be disjoint with Pod-to-Pod connectivity

      1 error, 1 warning in 1 file
      "
    `);
  });

  test('json: one object with diagnostics and counts', () => {
    const parsed = JSON.parse(renderJson([overlap, warning])) as { errors: number; warnings: number; diagnostics: Diagnostic[] };
    expect(parsed).toMatchObject({ errors: 1, warnings: 1 });
    expect(parsed.diagnostics.map((d) => [d.code, d.severity, d.file, d.line, d.column, d.path])).toEqual([
      ['member-count', 'warning', 'clustersets/demo.yaml', 2, 3, ['spec', 'clusters']],
      ['pod-cidr-overlap', 'error', 'clustersets/demo.yaml', 6, 18, ['spec', 'clusters', 1, 'podCIDRs', 0]],
    ]);
  });

  test('github: workflow commands with escaped properties and data', () => {
    expect(renderGithub([overlap])).toBe(
      '::error file=clustersets/demo.yaml,line=6,col=18,endLine=6,endColumn=32,title=pod-cidr-overlap::pod CIDR "10.244.16.0/20" of cluster "west" overlaps "10.244.16.0/20" of cluster "east"%0APod CIDRs of members must be disjoint with Pod-to-Pod connectivity\n',
    );
  });

  test('a long line is trimmed around the caret', () => {
    const long = `key: ${'x'.repeat(300)}bad${'y'.repeat(300)}\n`;
    const d: Diagnostic = { ...warning, line: 1, column: 306, endLine: 1, endColumn: 309 };
    const frame = renderText([d], new Map([['clustersets/demo.yaml', long]])).split('\n');
    expect(frame[1]!.length).toBeLessThan(120);
    expect(frame[1]).toContain('bad');
    expect(frame[2]!.indexOf('^^^')).toBe(frame[1]!.indexOf('bad'));
  });
});

// #40 item 5: a file saved with Windows line ends shows its lines as written, not ending in '?'
test('text: the code frame of a CRLF file shows its lines without the carriage return', () => {
  const crlf = new Map([[overlap.file, text.replace(/\n/g, '\r\n')]]);
  const out = renderText([overlap], crlf);
  expect(out).toContain('  6 |       podCIDRs: [10.244.16.0/20]\n    |                  ^^^^^^^^^^^^^^\n');
  expect(out).toContain('  5 |     - clusterID: west\n');
  expect(out).not.toMatch(/[?\r]\n/);
});

describe('terminal escapes from a definition', () => {
  test('are shown escaped in messages, hints and code frames, never sent to the terminal', () => {
    const evil = '\u001b[2J\u001b[Hall checks passed\u0007\u009b31m';
    const text = renderText(
      [{ code: 'schema', severity: 'error', message: `bad value "${evil}"`, hint: `try ${evil}`, file: 'x.yaml', path: [], line: 1, column: 7 }],
      new Map([['x.yaml', `name: ${evil}\n`]]),
    );

    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(text).toContain('bad value "\\x1b[2J\\x1b[Hall checks passed\\x07\\x9b31m"');
    expect(text).toContain('1 | name: ?[2J?[Hall checks passed??31m');
  });
});

describe('a secret in a code frame', () => {
  // diagnostics reach CI logs: the frame of an inline-secret finding shows where, never what
  const slack = 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx';
  const key = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
  const source = `metadata:\n  name: demo # ${key}\n  # slack ${slack}\nspec: {}\n`;
  const finding = (line: number, column: number, length: number): Diagnostic => ({
    code: 'inline-secret',
    severity: 'error',
    message: 'a secret (slack) is written in the definition',
    file: 'clustersets/demo.yaml',
    line,
    column,
    endLine: line,
    endColumn: column + length,
    path: [],
  });
  const cases: { name: string; diagnostics: Diagnostic[]; hidden: string[] }[] = [
    { name: 'its own line', diagnostics: [finding(3, 11, slack.length)], hidden: [slack] },
    { name: 'the line before it, another finding', diagnostics: [finding(2, 16, key.length), finding(3, 11, slack.length)], hidden: [slack, key] },
    {
      name: 'another diagnostic of the same file',
      diagnostics: [{ ...warning, line: 3, column: 3 }, finding(2, 16, key.length), finding(3, 11, slack.length)],
      hidden: [slack, key],
    },
  ];
  test.each(cases)('is masked in $name, and the caret still points at it', ({ diagnostics, hidden }) => {
    const text = renderText(diagnostics, new Map([['clustersets/demo.yaml', source]]));
    for (const secret of hidden) expect(text).not.toContain(secret);
    expect(text).toContain(`3 |   # slack ${'*'.repeat(slack.length)}`);
    expect(text).toContain(`  |           ${'^'.repeat(slack.length)}`);
  });
  test('a finding without an end masks the rest of its line', () => {
    const text = renderText([{ ...finding(3, 11, 0), endLine: undefined, endColumn: undefined }], new Map([['clustersets/demo.yaml', source]]));
    expect(text).not.toContain(slack);
    expect(text).toContain('3 |   # slack ****');
  });
});

// #49 item 14: a property (`file=`, `title=`) holding `,` or `:`, as the Actions runner reads it
// (ActionCommand.TryParseV2: the command info ends at the first `::`; properties split at `,`,
// each at its first `=`; then UnescapeProperty). Judged by the runner model, not by our escaping.
describe('github: properties holding , or :', () => {
  test.each([
    { file: 'clustersets/a,b.yaml', title: 'pod-cidr-overlap' },
    { file: 'clustersets/a,line=99,title=forged.yaml', title: 'pod-cidr-overlap' },
    { file: 'clustersets/a::b.yaml', title: 'pod-cidr-overlap' },
    { file: 'clustersets/a:b.yaml', title: 'pod-cidr-overlap' },
    { file: 'c:/clustersets/a.yaml', title: 'pod-cidr-overlap' },
    { file: 'clustersets/demo.yaml', title: 'a,b' },
    { file: 'clustersets/demo.yaml', title: 'a,file=forged.yaml' },
    { file: 'clustersets/demo.yaml', title: 'ends with a colon:' },
    { file: 'clustersets/demo.yaml', title: 'x::y' },
    { file: 'clustersets/x,:y::z,', title: ',:' },
  ])('file=$file title=$title reach the runner as they are', ({ file, title }) => {
    const d = { ...overlap, file, code: title as Diagnostic['code'] };
    const commands = workflowCommands(renderGithub([d]));
    expect(commands).toHaveLength(1);
    expect(commands[0]).toMatchObject({
      command: 'error',
      properties: { file, title, line: '6', col: '18' },
      data: `${overlap.message}\n${String(overlap.hint)}`,
    });
  });
});
