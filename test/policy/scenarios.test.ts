import { describe, expect, test } from 'vitest';
import { connectionChanges } from '../../src/policy/connection-changes';
import { parseEndpoint, parsePort, type Endpoint, type PortWord } from '../../src/policy/endpoint';
import { evaluateConnection } from '../../src/policy/evaluate-connection';
import { buildWorld } from '../../src/policy/world';
import { SCENARIOS, type Scenario } from './scenarios';
import { scenarioInventory } from './scenario-world';

const inventoryOf = (s: Scenario) => s.inventory ?? scenarioInventory();
const answer = (s: Scenario) =>
  evaluateConnection(
    buildWorld(s.definition, inventoryOf(s)),
    parseEndpoint(s.from) as Endpoint,
    parseEndpoint(s.to) as Endpoint,
    parsePort(s.port) as PortWord,
  );

describe.each(SCENARIOS)('$name ($cites)', (s) => {
  test('connections gives the verdict Antrea would', () => {
    const a = answer(s);
    expect(a.verdict, JSON.stringify(a)).toBe(s.verdict);
    if (s.rule) expect(`${a.egress.rule} ${a.ingress.rule}`).toContain(s.rule);
  });

  test('plan, from the same definition without policies, reports the pair as the verdict says', () => {
    const base = { ...s.definition, spec: { ...s.definition.spec, policies: [] } };
    const inventory = inventoryOf(s);
    const before = evaluateConnection(
      buildWorld(base, inventory),
      parseEndpoint(s.from) as Endpoint,
      parseEndpoint(s.to) as Endpoint,
      parsePort(s.port) as PortWord,
    );
    const port = parsePort(s.port) as PortWord;
    const covering = connectionChanges(base, s.definition, inventory).filter((c) => {
      if (c.from !== s.from || c.to !== s.to) return false;
      const m = /^(\w+)\/(\d+)(?:-(\d+))?$/.exec(c.ports)!;
      return m[1] === port.protocol && Number(m[2]) <= port.port && port.port <= Number(m[3] ?? m[2]);
    });
    // one entry at most; with one, it ends at the scenario's verdict; without, nothing changed
    expect(covering.length).toBeLessThanOrEqual(1);
    if (covering[0]) expect(covering[0].after.verdict).toBe(s.verdict);
    else expect(before.verdict).toBe(s.verdict);
  });
});
