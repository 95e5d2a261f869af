import { describe, expect, test } from 'vitest';
import {
  formatAddress,
  formatNetwork,
  hasHostBits,
  overlappingPairs,
  parseAddress,
  parseCidr,
  rangeContains,
  rangeFinder,
  rangesOverlap,
  type Prefix,
} from '../../src/validate/cidr';

const cidr = (text: string): Prefix => {
  const r = parseCidr(text);
  if (!r.ok) throw new Error(`${text}: ${r.reason}`);
  return r.prefix;
};
const ip = (text: string): bigint => {
  const r = parseAddress(text);
  if (!r.ok) throw new Error(`${text}: ${r.reason}`);
  return r.prefix.address;
};

describe('parseCidr', () => {
  test.each([
    { text: '10.244.0.0/20', family: 4, length: 20, network: '10.244.0.0/20', hostBits: false },
    { text: '10.10.1.1/16', family: 4, length: 16, network: '10.10.0.0/16', hostBits: true },
    { text: '0.0.0.0/0', family: 4, length: 0, network: '0.0.0.0/0', hostBits: false },
    { text: '192.168.1.7/32', family: 4, length: 32, network: '192.168.1.7/32', hostBits: false },
    { text: 'fd00:10:244::/56', family: 6, length: 56, network: 'fd00:10:244::/56', hostBits: false },
    { text: 'fd00::1/64', family: 6, length: 64, network: 'fd00::/64', hostBits: true },
  ])('$text', ({ text, family, length, network, hostBits }) => {
    const p = cidr(text);
    expect({ family: p.family, length: p.length, network: formatNetwork(p), hostBits: hasHostBits(p) }).toEqual({ family, length, network, hostBits });
  });

  test.each([
    { text: '10.0.0.0', reason: 'the prefix length is missing' },
    { text: '10.0.0.0/33', reason: 'the prefix length must be a number from 0 to 32' },
    { text: '10.0.0.0/', reason: 'the prefix length must be a number from 0 to 32' },
    { text: '10.0.0.0/016', reason: 'the prefix length must be a number from 0 to 32' },
    { text: 'fd00::/129', reason: 'the prefix length must be a number from 0 to 128' },
    { text: '10.0.0/16', reason: 'it is not an IP address' },
    { text: '010.0.0.0/8', reason: 'it is not an IP address' },
    { text: '0x0a.0.0.0/8', reason: 'it is not an IP address' },
    { text: '256.0.0.0/8', reason: 'it is not an IP address' },
    { text: 'fe80::1%eth0/64', reason: 'it is not an IP address' },
    { text: 'ten/8', reason: 'it is not an IP address' },
    { text: '', reason: 'it is not a CIDR' },
  ])('rejects "$text"', ({ text, reason }) => {
    expect(parseCidr(text)).toEqual({ ok: false, reason });
  });

  test('ranges are inclusive at both ends', () => {
    const p = cidr('10.244.16.0/20');
    expect([formatAddress(4, p.first), formatAddress(4, p.last)]).toEqual(['10.244.16.0', '10.244.31.255']);
  });
});

describe('parseAddress', () => {
  test.each([
    { text: '192.168.200.102', ok: true },
    { text: '::1', ok: true },
    { text: '1.2.3', ok: false },
    { text: '1.2.3.4/32', ok: false },
    { text: '01.2.3.4', ok: false },
  ])('$text', ({ text, ok }) => {
    expect(parseAddress(text).ok).toBe(ok);
  });
});

describe('range predicates', () => {
  test.each([
    { a: '10.244.0.0/20', b: '10.244.16.0/20', overlap: false },
    { a: '10.244.0.0/16', b: '10.244.16.0/20', overlap: true },
    { a: '10.244.16.0/20', b: '10.244.16.0/20', overlap: true },
    { a: '10.244.31.255/32', b: '10.244.16.0/20', overlap: true },
    { a: '10.244.32.0/32', b: '10.244.16.0/20', overlap: false },
  ])('$a and $b overlap: $overlap', ({ a, b, overlap }) => {
    expect(rangesOverlap(cidr(a), cidr(b))).toBe(overlap);
    expect(rangesOverlap(cidr(b), cidr(a))).toBe(overlap);
  });

  test('contains', () => {
    expect(rangeContains(cidr('10.96.0.0/12'), ip('10.100.0.1'))).toBe(true);
    expect(rangeContains(cidr('10.96.0.0/12'), ip('10.112.0.0'))).toBe(false);
  });
});

describe('overlappingPairs', () => {
  const items = (...texts: string[]) => texts.map((t, order) => ({ ...cidr(t.replace(/ .*/, '')), order, text: t }));
  const pairsOf = (
    list: ReturnType<typeof items>,
    kind: (item: (typeof list)[number]) => string = () => 'any',
    conflicts?: (a: string, b: string) => boolean,
  ) => overlappingPairs(list, kind, conflicts).map((p) => [p.first.text, p.second.text]);

  test.each([
    { name: 'disjoint ranges give nothing', texts: ['10.244.0.0/20', '10.244.16.0/20', '10.244.32.0/20'], pairs: [] },
    // #49 item 15: one shared address is an overlap; adjacent ranges are not
    { name: 'equal /32s share their one address', texts: ['10.0.0.7/32', '10.0.0.7/32 again'], pairs: [['10.0.0.7/32', '10.0.0.7/32 again']] },
    { name: 'a range and the /32 of its last address', texts: ['10.0.0.4/30', '10.0.0.7/32'], pairs: [['10.0.0.4/30', '10.0.0.7/32']] },
    { name: 'adjacent ranges share nothing', texts: ['10.0.0.4/30', '10.0.0.8/32', '10.0.0.9/32', '10.0.0.12/30'], pairs: [] },
    {
      name: 'a repeat pairs the later with the earlier',
      texts: ['10.244.16.0/20', '10.244.0.0/20', '10.244.16.0/20 again'],
      pairs: [['10.244.16.0/20', '10.244.16.0/20 again']],
    },
    { name: 'the later in the document is second, whatever the address order', texts: ['10.1.0.0/16', '10.0.0.0/8'], pairs: [['10.1.0.0/16', '10.0.0.0/8']] },
    {
      name: 'a wide range hides nothing behind it',
      texts: ['10.0.0.0/8', '10.1.0.0/16', '10.200.0.0/16'],
      pairs: [
        ['10.0.0.0/8', '10.1.0.0/16'],
        ['10.0.0.0/8', '10.200.0.0/16'],
      ],
    },
    { name: 'adjacent ranges do not overlap', texts: ['10.0.0.0/9', '10.128.0.0/9'], pairs: [] },
  ])('$name', ({ texts, pairs }) => {
    expect(pairsOf(items(...texts))).toEqual(pairs);
  });

  test('only conflicting kinds pair: a pod range seen past a pod range still meets a service range', () => {
    const list = items('10.0.0.0/8 pod', '10.1.0.0/16 service', '10.1.2.0/24 pod');
    const kind = (v: (typeof list)[number]) => v.text.split(' ')[1]!;
    expect(pairsOf(list, kind, (a, b) => a !== b)).toEqual([
      ['10.0.0.0/8 pod', '10.1.0.0/16 service'],
      ['10.1.0.0/16 service', '10.1.2.0/24 pod'],
    ]);
  });

  test('IPv4 and IPv6 ranges never meet', () => {
    expect(pairsOf(items('0.0.0.0/0', '::/96', '::/0'))).toEqual([['::/96', '::/0']]);
  });
});

describe('rangeFinder', () => {
  const ranges = ['10.0.0.0/8', '10.244.0.0/16', '172.16.0.0/12', '192.168.10.0/24'].map((t) => ({ ...cidr(t), text: t }));
  const find = rangeFinder(ranges);
  test.each([
    { point: '10.1.2.3', found: '10.0.0.0/8' },
    { point: '10.244.9.9', found: '10.0.0.0/8' },
    { point: '172.31.255.255', found: '172.16.0.0/12' },
    { point: '172.32.0.0', found: undefined },
    { point: '192.168.10.0', found: '192.168.10.0/24' },
    { point: '192.168.11.1', found: undefined },
    { point: '9.255.255.255', found: undefined },
  ])('$point → $found', ({ point, found }) => {
    expect(find(ip(point))?.text).toBe(found);
  });
});
