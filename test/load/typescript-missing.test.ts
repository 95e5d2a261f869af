import { afterEach, expect, test, vi } from 'vitest';
import { notGatewayHa } from '../helpers/gateway-ha';

// `typescript` is an optional peer dependency: a YAML-only repository does not install it.
afterEach(() => {
  vi.doUnmock('node:module');
  vi.resetModules();
});

const TS = 'test/fixtures/typescript/ts-clusterset.ts';
const YAML = 'clustersets/demo-clusterset.yaml';

test('without the typescript package: typescript-missing at the top of each .ts definition, with the install hint; YAML still checks', async () => {
  vi.resetModules();
  // the compiler requires the package (typescript-package.ts): Node's require, as it fails where the package is not installed
  vi.doMock('node:module', async (original) => {
    const actual = await original<typeof import('node:module')>();
    const createRequire = (from: string | URL) => {
      const real = actual.createRequire(from);
      return Object.assign((id: string): unknown => {
        if (id === 'typescript') throw Object.assign(new Error("Cannot find module 'typescript'\nRequire stack:\n- lib/cli.js"), { code: 'MODULE_NOT_FOUND' });
        return real(id);
      }, real);
    };
    // the module's other exports as they are (a spread would not copy its class's prototype)
    const mocked: typeof actual = Object.assign(Object.create(actual) as typeof actual, { createRequire });
    return Object.assign(Object.create(mocked) as typeof actual, { default: mocked });
  });
  const { validateDefinitions } = await import('../../src/pipeline/pipeline');
  const { diagnostics, parsed } = await validateDefinitions([TS, YAML]);
  // the YAML's members have one Gateway candidate each: gateway-ha's warnings are not this test's (#51)
  expect(notGatewayHa(diagnostics)).toEqual([
    {
      code: 'typescript-missing',
      severity: 'error',
      file: TS,
      path: [],
      line: 1,
      column: 1,
      message: expect.stringMatching(/^a TypeScript definition needs the typescript package, which is not installed \(.+\)$/) as unknown,
      hint: expect.stringContaining('`npm i -D typescript`') as unknown,
    },
  ]);
  expect(parsed.map((p) => p.definition.metadata.name)).toEqual(['demo-clusterset']);
});

test('with it, the same definition loads (the control)', async () => {
  const { validateDefinitions } = await import('../../src/pipeline/pipeline');
  const { diagnostics, parsed } = await validateDefinitions([TS]);
  expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  expect(parsed).toHaveLength(1);
});
