import { describe, expect, it } from 'vitest';
import { markdownWithIdentifiers } from '../../src/plan/markdown';
import { code as codeSpan } from '../../src/text/markdown';

const IDS = new Set(['east', 'demo/nginx', 'kube-system/antrea-agent', 'spec.template.spec.containers[0].image', '10.244.0.0/20', 'v2.7.0', 'a`b', '`x']);

describe('identifiers in code spans in the markdown plan', () => {
  it.each([
    ['a known name, alone', 'member east leaves', 'member `east` leaves'],
    ['before a comma, a colon, a period, in parentheses', 'in 2 clusters (east, west): east.', 'in 2 clusters (`east`, west): `east`.'],
    ['namespace/name, a field path, a CIDR, a version', 'changed: spec.template.spec.containers[0].image', 'changed: `spec.template.spec.containers[0].image`'],
    ['CIDRs and versions', 'Pod CIDRs change from 10.244.0.0/20 to none in v2.7.0', 'Pod CIDRs change from `10.244.0.0/20` to none in `v2.7.0`'],
    ['an upstream source file', 'up to 36 h, leader/stale_controller.go)', 'up to 36 h, `leader/stale_controller.go`)'],
    ['a quoted command', 'by hand (kubectl annotate node <name> x/gateway-)', 'by hand (`kubectl annotate node <name> x/gateway-`)'],
    [
      'a command that ends a step after a colon',
      'in east, delete it (why): kubectl --context east -n kube-system delete secret east_token',
      'in `east`, delete it (why): `kubectl --context east -n kube-system delete secret east_token`',
    ],
    [
      'a loop that ends a step after a colon',
      'in 7 members, delete it: for pair in a=x b=y; do kubectl --context "${pair%%=*}" -n ns delete secret "${pair#*=}"; done',
      'in 7 members, delete it: `for pair in a=x b=y; do kubectl --context "${pair%%=*}" -n ns delete secret "${pair#*=}"; done`',
    ],
    ['a name inside a longer word stays text', 'eastern east-2 src=east', 'eastern east-2 src=east'],
    // `://` broken too: GitHub autolinks a bare URL (#37)
    ['what the plan does not know is escaped', 'Service [a](http://evil) <img> *b*', 'Service \\[a\\](http\\://evil) \\<img\\> \\*b\\*'],
    ['a name with a backtick is never a token: escaped text', 'Service a`b leaves', 'Service a\\`b leaves'],
  ])('%s', (_, text, expected) => {
    expect(markdownWithIdentifiers(text, IDS)).toBe(expected);
  });

  it.each([
    ['control characters never reach it: shown as escapes (#37)', 'a\u001b[2Jb', '`a\\x1b[2Jb`'],
    ['nor bidi controls, nor a workflow command', '\u202e##[error]x', '`\\u202e##\\x5berror]x`'],
    ['a backtick inside: a longer fence', 'a`b', '``a`b``'],
    ['a backtick at an end: padded', '`x', '`` `x ``'],
  ])('a code span: %s', (_, text, expected) => {
    expect(codeSpan(text)).toBe(expected);
  });

  it('renders as GitHub renders it (marked, GFM): code, no link text, no HTML', async () => {
    const { marked } = await import('marked');
    const html = await marked.parse(markdownWithIdentifiers('member east and a`b; Service [a](http://evil) <img src=x> (kubectl get <x>)', IDS), { gfm: true });
    expect(html).toContain('<code>east</code>');
    expect(html).toContain('<code>kubectl get &lt;x&gt;</code>');
    // GFM still autolinks a bare URL, as GitHub does; no link text and no HTML come from a value
    expect(html).not.toMatch(/>a<\/a>|<img/);
  });
});
