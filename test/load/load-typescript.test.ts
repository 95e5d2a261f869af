import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { compile } from '../../src/pipeline/compile';
import { LATEST } from '../helpers/releases';
import { notGatewayHa } from '../helpers/gateway-ha';

const tmp = mkdtempSync(join(tmpdir(), 'load-typescript-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('TypeScript definitions', () => {
  test('a typed definition goes through the same schema and rules as YAML', async () => {
    const result = await compile({ files: ['test/fixtures/typescript/ts-clusterset.ts'], validateOnly: true });
    expect(notGatewayHa(result.diagnostics)).toEqual([]);
  });

  test('positions point into the object literal, through a local const and an `as` cast', async () => {
    const result = await compile({ files: ['test/fixtures/typescript/ts-typo.ts'], validateOnly: true });
    expect(notGatewayHa(result.diagnostics)).toMatchObject([
      {
        code: 'schema',
        file: 'test/fixtures/typescript/ts-typo.ts',
        line: 12,
        column: 28,
        path: ['spec', 'clusters', 1, 'podCIDR'],
        hint: 'did you mean "podCIDRs"?',
      },
    ]);
  });

  test('a module that fails to evaluate is a diagnostic, not a crash', async () => {
    const result = await compile({ files: ['test/fixtures/typescript/broken.ts'], validateOnly: true });
    // where the error was made: the engine places it at the call of its constructor, `Error(`
    expect(result.diagnostics).toMatchObject([
      { code: 'typescript-evaluation', line: 1, column: 16, message: 'cannot evaluate definition: definition could not be built' },
    ]);
  });

  // The sandbox reads no file itself: the compiler hands it the definition's modules (#37 item 2).
  // What definitions import, split over files as people write them, must give the same data as
  // the same definition written in one file.
  test('a definition split over the files of its folder gives the data of the same definition in one file', async () => {
    const dir = join(tmp, 'split');
    mkdirSync(join(dir, 'lib'), { recursive: true });
    const files: Record<string, string> = {
      'lib/index.ts': "export { members } from './members.js';\nexport const LEADER = 'north';\n",
      'lib/members.ts':
        "import type { Cluster } from 'antrea-clusterset';\nimport cidrs from '../cidrs.json';\nimport { gateway } from './gateway.cjs';\nexport const members = (): Cluster[] => Object.entries(cidrs).map(([clusterID, serviceCIDR]) => ({ clusterID, serviceCIDR, gateways: [gateway(clusterID)] }));\n",
      'lib/gateway.cjs': 'exports.gateway = (id) => ({ node: id + "-1" });\n',
      'cidrs.json': '{ "east": "10.96.0.0/16", "west": "10.112.0.0/16" }\n',
      // a link inside the folder is followed
      'linked.ts': '',
      'split.ts': `import { defineClusterSet, type ClusterSetInput } from 'antrea-clusterset';
import type { App } from 'cdk8s';
import { LEADER, members } from './lib';
import { VERSION } from './linked';
type Unused = App;
const definition: ClusterSetInput = {
  apiVersion: 'antrea-clusterset/v1alpha1',
  kind: 'ClusterSetDefinition',
  metadata: { name: 'split' },
  spec: { antrea: { version: VERSION }, leader: { clusterID: LEADER, server: 'https://172.18.0.1:6443' }, clusters: [{ clusterID: LEADER, member: false }, ...members()] },
};
export default defineClusterSet(definition);
`,
      'one.ts': `import { defineClusterSet } from 'antrea-clusterset';
export default defineClusterSet({
  apiVersion: 'antrea-clusterset/v1alpha1',
  kind: 'ClusterSetDefinition',
  metadata: { name: 'split' },
  spec: {
    antrea: { version: '${LATEST}' },
    leader: { clusterID: 'north', server: 'https://172.18.0.1:6443' },
    clusters: [{ clusterID: 'north', member: false }, { clusterID: 'east', serviceCIDR: '10.96.0.0/16', gateways: [{ node: 'east-1' }] }, { clusterID: 'west', serviceCIDR: '10.112.0.0/16', gateways: [{ node: 'west-1' }] }],
  },
});
`,
    };
    for (const [name, text] of Object.entries(files)) if (name !== 'linked.ts') writeFileSync(join(dir, name), text);
    writeFileSync(join(dir, 'lib/version.ts'), `export const VERSION = '${LATEST}';\n`);
    symlinkSync('lib/version.ts', join(dir, 'linked.ts'));
    const split = await compile({ files: [join(dir, 'split.ts')] });
    const one = await compile({ files: [join(dir, 'one.ts')] });
    expect(split.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(split.sources[0]!.data).toEqual(one.sources[0]!.data);
    // manifest.json names the source file; every other file is the same, byte for byte
    const bytes = (r: typeof one) => r.files.filter((f) => f.path !== 'manifest.json').map((f) => [f.path, f.content]);
    expect(bytes(split)).toEqual(bytes(one));
  });
});
