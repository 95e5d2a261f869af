import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { requireTool } from './tools';

/**
 * Mermaid as GitHub runs it: the package's browser (ES module) build in a real headless Chromium (Debian's
 * `chromium`, which `.ci/run` installs), with Mermaid's default configuration. Mermaid cannot
 * parse a labelled flowchart in Node (its DOMPurify needs a window), so parsing runs here too,
 * batched in one page. Where no Chromium is found, `openMermaidBrowser` prints why and answers
 * undefined, and the suites skip; under `.ci/run` (test/helpers/tools.ts) it fails instead.
 */
// CHROMIUM_PATH, when set, is the only one tried (CHROMIUM_PATH=none shows the skip)
const CANDIDATES = process.env.CHROMIUM_PATH ? [process.env.CHROMIUM_PATH] : ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** Where the page and Mermaid's modules are served from, by the page's own route (never the network). */
const ORIGIN = 'http://mermaid.invalid';

const chromiumPath = (): string | undefined => CANDIDATES.find((p) => existsSync(p));

export interface Rendered {
  readonly error?: string;
  /** the SVG's size in characters */
  readonly svg: number;
  /** Mermaid's replacement diagram for a text over maxTextSize */
  readonly tooLarge: boolean;
  /** elements and attributes a label must never produce */
  readonly links: number;
  readonly scripts: number;
  readonly handlers: number;
  /** the SVG's text content (labels as a reader sees them) */
  readonly text: string;
}

/** The little of the DOM the page's code reads (the tests compile without the DOM library). */
interface SvgDocument {
  querySelectorAll(selector: string): ArrayLike<{ readonly attributes: ArrayLike<{ readonly name: string; readonly value: string }>; remove(): void }>;
  querySelector(selector: string): { readonly textContent: string | null } | null;
}

export interface MermaidBrowser {
  /** `mermaid.parse` of each text: undefined when it parses, else the error */
  parse(texts: readonly string[]): Promise<(string | undefined)[]>;
  render(texts: readonly string[]): Promise<Rendered[]>;
  close(): Promise<void>;
}

export async function openMermaidBrowser(suite: string): Promise<MermaidBrowser | undefined> {
  const executablePath = chromiumPath();
  if (!executablePath) {
    requireTool(suite, `Chromium (${CANDIDATES.join(', ')}; install Debian's chromium or set CHROMIUM_PATH)`, false);
    return undefined;
  }
  const profile = mkdtempSync(join(tmpdir(), 'mermaid-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  } catch (e) {
    rmSync(profile, { recursive: true, force: true });
    requireTool(suite, `a Chromium that starts (${executablePath}: ${(e as Error).message.split('\n')[0]!})`, false);
    return undefined;
  }
  const page: Page = context.pages()[0] ?? (await context.newPage());
  // nothing leaves the machine: the page and Mermaid come from here, at an origin of their own
  // (`.invalid` names nothing, RFC 2606). Mermaid's ES module build loads the chunks of the
  // diagram it draws (a flowchart) where the single-file build compiles every diagram type's
  // 5.5 MB on each start: the same package and code, and the same SVG
  const dist = dirname(createRequire(import.meta.url).resolve('mermaid/dist/mermaid.esm.min.mjs'));
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.origin !== ORIGIN) return route.abort();
    if (url.pathname === '/') return route.fulfill({ contentType: 'text/html', body: '<!doctype html><html><body></body></html>' });
    const file = join(dist, decodeURIComponent(url.pathname));
    if (!file.startsWith(`${dist}/`) || !file.endsWith('.mjs') || !existsSync(file)) return route.abort();
    return route.fulfill({ contentType: 'text/javascript', body: readFileSync(file) });
  });
  await page.goto(`${ORIGIN}/`);
  // as text: vitest rewrites a dynamic import in this file's functions, the page must run its own
  await page.evaluate(`import('/mermaid.esm.min.mjs').then(({ default: m }) => { m.initialize({ startOnLoad: false }); globalThis.mermaid = m; })`);

  return {
    parse: (texts) =>
      page.evaluate(async (all) => {
        const m = (globalThis as unknown as { mermaid: { parse(t: string): Promise<unknown> } }).mermaid;
        const out: (string | undefined)[] = [];
        for (const t of all) {
          try {
            await m.parse(t);
            out.push(undefined);
          } catch (e) {
            out.push(String((e as Partial<Error>).message ?? e));
          }
        }
        return out;
      }, texts),
    render: (texts) =>
      page.evaluate(async (all) => {
        const m = (globalThis as unknown as { mermaid: { render(id: string, t: string): Promise<{ svg: string }> } }).mermaid;
        const out: Rendered[] = [];
        for (const [i, t] of all.entries()) {
          try {
            const { svg } = await m.render(`diagram${i}`, t);
            const doc = new (
              globalThis as unknown as { DOMParser: new () => { parseFromString(s: string, type: string): SvgDocument } }
            ).DOMParser().parseFromString(svg, 'text/html');
            // as a page shows it: an HTML parse, like GitHub's viewer inserting the SVG
            for (const style of Array.from(doc.querySelectorAll('style'))) style.remove();
            const all = Array.from(doc.querySelectorAll('svg *'));
            out.push({
              svg: svg.length,
              tooLarge: svg.includes('Maximum text size in diagram exceeded'),
              links: doc.querySelectorAll('svg a').length,
              scripts: doc.querySelectorAll('svg script, svg iframe, svg img, svg object, svg embed').length,
              handlers: all.filter((el) => Array.from(el.attributes).some((a) => a.name.startsWith('on') || /javascript:/i.test(a.value))).length,
              text: doc.querySelector('svg')?.textContent ?? '',
              ...(doc.querySelector('svg') ? {} : { error: 'no SVG element' }),
            });
          } catch (e) {
            out.push({ error: String((e as Partial<Error>).message ?? e), svg: 0, tooLarge: false, links: 0, scripts: 0, handlers: 0, text: '' });
          }
        }
        return out;
      }, texts),
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
