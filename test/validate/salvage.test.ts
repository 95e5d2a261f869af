import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics/diagnostic';
import { loadYaml } from '../../src/load/load-yaml';
import { parseClusterSet } from '../../src/model/parse-clusterset';
import { validateWhatRemains } from '../../src/validate/salvage';
import { notGatewayHa } from '../helpers/gateway-ha';

const demo = readFileSync('clustersets/demo-clusterset.yaml', 'utf8');
const OVERLAP = (t: string) => t.replace('podCIDRs: [10.244.16.0/20]', 'podCIDRs: [10.244.0.0/20]');

function check(text: string): string[] {
  const diagnostics: Diagnostic[] = [];
  const source = loadYaml('demo.yaml', text, diagnostics)!;
  if (!parseClusterSet(source, diagnostics)) validateWhatRemains(source, diagnostics);
  // the demo's members have one Gateway candidate each: gateway-ha's warnings are not this test's (#51)
  return notGatewayHa(diagnostics).map((d) => `${d.line}:${d.column} ${d.code}`);
}

describe('a schema error does not hide what can still be checked', () => {
  test.each([
    {
      name: 'a Gateway as a string in member3, a Pod CIDR overlap elsewhere',
      edit: (t: string) => OVERLAP(t.replace('        - node: cl3-node1', '        - cl3-node1')),
      expected: ['34:11 schema', '24:18 pod-cidr-overlap'],
    },
    {
      name: 'an unknown key in member3',
      edit: (t: string) => OVERLAP(t.replace('      serviceCIDR: 10.96.32.0/20', '      serviceCidr: 10.96.32.0/20')),
      expected: ['32:7 schema', '24:18 pod-cidr-overlap'],
    },
    // #38 item 9: a typo in the entry that overlaps hides nothing of that entry
    {
      name: 'an unknown key (colour: blue) in the entry whose Pod CIDR overlaps',
      edit: (t: string) => OVERLAP(t.replace('      podCIDRs: [10.244.16.0/20]', '      colour: blue\n      podCIDRs: [10.244.16.0/20]')),
      expected: ['24:7 schema', '25:18 pod-cidr-overlap'],
    },
    {
      name: 'an unknown key under spec.network',
      edit: (t: string) => OVERLAP(t.replace('    podToPodConnectivity: true', '    podToPodConnectivity: true\n    tunelType: vxlan')),
      expected: ['12:5 schema', '25:18 pod-cidr-overlap'],
    },
    // a required field of the ClusterSet itself: nothing else can be checked
    {
      name: 'the leader without its server',
      edit: (t: string) => OVERLAP(t.replace('    server: https://192.168.150.101:6443\n', '')),
      expected: ['13:5 schema'],
    },
  ])('$name', ({ edit, expected }) => {
    const text = edit(demo);
    expect(text).not.toBe(demo);
    expect(check(text).sort()).toEqual(expected.sort());
  });

  test('nothing is reported about the entry that was set aside', () => {
    // member3 fails the schema and has no Pod CIDRs left in its stand-in: no pod-cidr-missing, no gateway-missing for it
    const text = demo.replace('        - node: cl3-node1', '        - cl3-node1');
    expect(check(text)).toEqual(['34:11 schema']);
  });
});
