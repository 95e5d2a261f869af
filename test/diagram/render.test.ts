import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { clusterSetDiagram } from '../../src/diagram/clusterset-diagram';
import { MERMAID_MAX_EDGES, MERMAID_MAX_TEXT, mermaidTextSize } from '../../src/diagram/mermaid';
import { planDiagram } from '../../src/plan/plan-diagram';
import { renderPlan } from '../../src/plan/render-plan';
import { openMermaidBrowser, type MermaidBrowser } from '../helpers/mermaid-browser';
import { soakRows } from '../helpers/soak';
import { EXAMPLES, HOSTILE, everyImpactPlan, fleetOf, hostileDefinition, mermaidBlocks, planBetween, wideChangePlan } from './cases';

/**
 * The diagrams rendered by Mermaid in headless Chromium, with Mermaid's defaults as GitHub uses
 * them; one browser for the file. Skipped, with a message, where no Chromium can be found.
 */
const browser: MermaidBrowser | undefined = await openMermaidBrowser('mermaid in Chromium');
afterAll(() => browser?.close());

const text = (d: ReturnType<typeof clusterSetDiagram>) => d!.text;

// each render is a layout in Chromium (most of this file's CPU): npm test renders the example
// with the most parts (test-clusterset: a leader, a member that exports, one that does not) and
// parses the others (the last test); the soak tier (test/helpers/soak.ts) renders every example
const rendered = soakRows(EXAMPLES, (e) => e.name === 'test-clusterset');

describe.skipIf(!browser)('Mermaid renders', () => {
  let b: MermaidBrowser;
  beforeAll(() => {
    b = browser!;
  });

  test('the examples, a 1,000-member fleet and a plan with every impact class: an SVG, no error', async () => {
    const plan = everyImpactPlan();
    const diagrams = [
      ...rendered.map((e) => text(clusterSetDiagram(e.definition))),
      text(clusterSetDiagram(fleetOf(1001))),
      ...mermaidBlocks(planDiagram(plan, 'demo-clusterset', MERMAID_MAX_TEXT)),
    ];
    expect(diagrams).toHaveLength(rendered.length + 2);
    const svgs = await b.render(diagrams);
    for (const r of svgs) {
      expect(r.error).toBeUndefined();
      expect(r.tooLarge).toBe(false);
      expect(r.svg).toBeGreaterThan(1000);
    }
    const planSvg = svgs[svgs.length - 1]!;
    expect(planSvg.text).toContain('changed: demo-cluster-member2');
    expect(planSvg.text).toContain('destructive: objects deleted or orphaned');
    expect(svgs[rendered.length]!.text).toMatch(/cluster-1 to cluster-\d+: \d+ members/);
  });

  test('hostile names render as text: no link, script, image or handler, and the diagram does not break', async () => {
    // npm test renders the hostile names as written; the fleet of 200 with long names (cut with
    // an ellipsis before they are escaped: clusterset-diagram.test) is 38 kB of labels, the
    // slowest layout here: the soak tier renders it, npm test parses such fleets (the last test)
    const diagrams = soakRows([hostileDefinition(3), hostileDefinition(200, true)], (_, i) => i === 0).map((d) => text(clusterSetDiagram(d)));
    const [small, ...large] = await b.render(diagrams);
    for (const r of [small!, ...large]) {
      expect(r.error).toBeUndefined();
      expect([r.links, r.scripts, r.handlers]).toEqual([0, 0, 0]);
    }
    // the values are shown as written (entities decoded by Mermaid into text)
    for (const h of ['<img src=x onerror=alert(1)>', 'x"]; click L "javascript:alert(1)"; %%', 'style L fill:#f00;stroke:#0f0;', '#quot; #60; &lt; ; #35;'])
      expect(small!.text).toContain(h);
    expect(HOSTILE.length).toBeGreaterThan(5);
    // the control: the same statements unescaped would add a link and markup, which the checks see
    const [raw] = await b.render([`flowchart LR\n  L["<b>x</b>"]\n  click L href "https://example.com"\n`]);
    expect(raw!.links).toBe(1);
  });

  // a change folded in the diagram (over 30 members): npm test a fleet of 40, the soak tier 300
  test.each(soakRows([40, 300], (n) => n === 40))('the change of a %i-member fleet, as the plan comment holds it, renders', async (n) => {
    const md = renderPlan('markdown', wideChangePlan(n), { base: 'main', head: 'work tree' });
    const blocks = mermaidBlocks(md);
    expect(blocks).toHaveLength(1);
    const [r] = await b.render(blocks);
    expect(r!.error).toBeUndefined();
    expect(r!.tooLarge).toBe(false);
    expect(r!.text).toContain('destructive');
  });

  test('the text limit is where mermaidTextSize says: at the limit it renders, one character more it does not', async () => {
    // CRLF line ends, a comment line and leading blank lines: Mermaid counts the text after its preprocessing
    const at = (size: number) => {
      const head = '\r\n\r\n%% not counted\r\nflowchart LR\r\n  a["';
      const tail = '"]\r\n';
      const text = `${head}${'x'.repeat(size - mermaidTextSize(`${head}${tail}`))}${tail}`;
      expect(mermaidTextSize(text)).toBe(size);
      return text;
    };
    const [fits, over] = await b.render([at(MERMAID_MAX_TEXT), at(MERMAID_MAX_TEXT + 1)]);
    expect(fits!.error).toBeUndefined();
    expect(fits!.tooLarge).toBe(false);
    expect(over!.tooLarge).toBe(true);
  });

  test('the edge limit: 500 edges parse, 501 do not', async () => {
    const edges = (n: number) => `flowchart LR\n${Array.from({ length: n }, (_, i) => `  n${i} --> n${i + 1}`).join('\n')}\n`;
    const [fits, over] = await b.parse([edges(MERMAID_MAX_EDGES), edges(MERMAID_MAX_EDGES + 1)]);
    expect(fits).toBeUndefined();
    expect(over).toMatch(/Edge limit exceeded/);
  });
});

describe.skipIf(!browser)('Mermaid parses', () => {
  test('fleets of every size, hostile fleets and the plans of wide changes', async () => {
    // npm test: each side of the folding (30 members) and one folded fleet here (the render of
    // 1,001 members above is the large one); the soak tier (test/helpers/soak.ts) every size, the
    // largest fleets and wide changes (a fleet of 10,000 takes a second to build in Node), and the
    // examples the first test renders
    const sizes = soakRows([1, 2, 3, 4, 10, 31, 32, 100, 500, 2000, 10_000], (n) => [1, 4, 31, 32, 100].includes(n));
    const wide = soakRows([10, 100, 1000], (n) => n === 10);
    const hostile = soakRows([3, 30, 31, 1000], (n) => n !== 1000);
    const examples = soakRows(EXAMPLES, (e) => !rendered.includes(e));
    const diagrams = [
      ...sizes.map((n) => text(clusterSetDiagram(fleetOf(n)))),
      ...examples.map((e) => text(clusterSetDiagram(e.definition))),
      ...hostile.map((n) => text(clusterSetDiagram(hostileDefinition(n, n > 30)))),
      ...wide.flatMap((n) => mermaidBlocks(renderPlan('markdown', wideChangePlan(n), { base: 'b', head: 'h' }))),
      ...mermaidBlocks(planDiagram(planBetween(EXAMPLES[0]!.definition, undefined), EXAMPLES[0]!.name, MERMAID_MAX_TEXT)),
      ...mermaidBlocks(planDiagram(planBetween(undefined, EXAMPLES[0]!.definition), EXAMPLES[0]!.name, MERMAID_MAX_TEXT)),
      ...mermaidBlocks(planDiagram(planBetween(hostileDefinition(40, true), hostileDefinition(3)), hostileDefinition(3).metadata.name, MERMAID_MAX_TEXT)),
    ];
    expect(diagrams).toHaveLength(sizes.length + examples.length + hostile.length + wide.length + 3);
    const errors = await browser!.parse(diagrams);
    expect(errors).toEqual(diagrams.map(() => undefined));
  });
});
