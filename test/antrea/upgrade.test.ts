import { describe, expect, test } from 'vitest';
import { upgradeSteps } from '../../src/antrea/upgrade';
import { gossipEncryptionMove, perMemberCredentialsMove, shiftMinor } from '../helpers/releases';

// Antrea's versioning policy is tested on version strings; the steps of the v2.7 changes on the
// releases the registry marks with them, so upgrade.ts and the release facts must agree.
const credentials = perMemberCredentialsMove();
const gossip = gossipEncryptionMove();

const indexOf = (steps: readonly string[], needle: RegExp) => steps.findIndex((s) => needle.test(s));

describe('upgradeSteps', () => {
  test.each([
    ['same version', 'v2.7.0', 'v2.7.0'],
    ['same old version', 'v2.5.3', 'v2.5.3'],
  ])('%s: nothing to do', (_, from, to) => {
    expect(upgradeSteps(from, to)).toEqual({ from, to, steps: [], commands: {}, risks: [] });
  });

  test.each([
    ['a downgrade', 'v2.7.0', 'v2.6.3', /downgrade/],
    ['a patch downgrade', 'v2.6.3', 'v2.6.1', /downgrade/],
    ['five minor versions', 'v2.2.0', 'v2.7.0', /at most 4.*v2\.6\.x/],
    ['a major version', 'v1.15.1', 'v2.5.3', /major/],
    ['not a version', 'latest', 'v2.7.0', /not an Antrea release/],
  ])('%s is refused, with no steps', (_, from, to, why) => {
    const plan = upgradeSteps(from, to);
    expect(plan.refused).toMatch(why);
    expect(plan.steps).toEqual([]);
  });

  test.each([
    ['v2.5.3', 'v2.7.0'],
    [credentials.from, credentials.to],
    ['v2.3.0', 'v2.7.0'],
  ])('%s → %s: per-member credentials before the leader, leader before members, then the shared account goes', (from, to) => {
    const { steps, commands, risks, refused } = upgradeSteps(from, to, { leaderNamespace: 'mc-leader' });
    expect(refused).toBeUndefined();
    const credentials = indexOf(steps, /own ServiceAccount token/);
    const leader = indexOf(steps, /^Leader cluster first/);
    const members = indexOf(steps, /^Then each member/);
    const shared = indexOf(steps, /delete the shared credential antrea-mc-member-access-sa/);
    expect(commands[shared]).toContain('kubectl delete serviceaccount antrea-mc-member-access-sa -n mc-leader --ignore-not-found');
    expect([credentials, leader, members, shared].every((i) => i >= 0)).toBe(true);
    expect(credentials).toBeLessThan(leader);
    expect(leader).toBeLessThan(members);
    expect(members).toBeLessThan(shared);
    expect(steps[leader]).toMatch(/webhooks, then antrea-controller/);
    expect(risks.some((r) => /heartbeat/.test(r))).toBe(true);
    expect(risks.some((r) => /memberlist/.test(r))).toBe(true);
  });

  test('to the first release with a memberlist key: gossip encryption in three rollouts, the key created before the upgrade and kept out of git', () => {
    const { steps, commands, risks } = upgradeSteps(gossip.from, gossip.to);
    const secret = indexOf(steps, /antrea-memberlist-keys/);
    // the change sets the version; the first gossip rollout is what it must also carry
    const version = indexOf(steps, /^If you use Egress or ServiceExternalIP: this change must also set/);
    const outgoing = indexOf(steps, /gossipVerifyOutgoing: true/);
    const incoming = indexOf(steps, /gossipVerifyIncoming: true/);
    expect([secret, version, outgoing, incoming].every((i) => i >= 0)).toBe(true);
    expect(secret).toBeLessThan(version);
    expect(steps[version]).toMatch(/gossipVerifyOutgoing: false.*gossipVerifyIncoming: false|both .*false/);
    expect(version).toBeLessThan(outgoing);
    expect(outgoing).toBeLessThan(incoming);
    // the key is made in each cluster at the moment, never written to a file in the repository
    expect(commands[secret]).toHaveLength(1);
    expect(commands[secret]![0]).toContain(
      `| while IFS= read -r context; do kubectl --context "$context" create secret generic antrea-memberlist-keys -n kube-system --from-literal=keys="$(head -c 32 /dev/urandom | base64)"; done`,
    );
    expect(risks.join('\n')).not.toMatch(/turn them back on once/);
  });

  test('between releases before per-member credentials: no credential steps', () => {
    const { steps, risks, refused } = upgradeSteps(shiftMinor(credentials.from, -1), credentials.from);
    expect(refused).toBeUndefined();
    expect(steps.join('\n')).not.toMatch(/antrea-mc-member-access-sa|own ServiceAccount token/);
    expect(indexOf(steps, /^Leader cluster first/)).toBeLessThan(indexOf(steps, /^Then each member/));
    expect(risks.join('\n')).not.toMatch(/memberlist/);
  });

  test('four minor versions is the limit', () => {
    expect(upgradeSteps('v2.3.0', 'v2.7.0').refused).toBeUndefined();
    expect(upgradeSteps('v2.2.9', 'v2.7.0').refused).toBeDefined();
  });

  test('only what applies: no step the change itself is, no gossip risk when the gates are off, commands through the given kubectl', () => {
    const plain = upgradeSteps(gossip.from, gossip.to, { leaderKubectl: 'kubectl --context lead' });
    expect(plain.steps.join('\n')).not.toMatch(/Change spec\.antrea\.version|prefix pair/);
    expect(
      Object.values(plain.commands)
        .flat()
        .every((c) => c.startsWith('kubectl --context lead ') || c.includes('kubectl --context lead get memberclusterannounce')),
    ).toBe(true);
    expect(plain.risks.join('\n')).toMatch(/antrea-memberlist-keys/);
    expect(upgradeSteps(gossip.from, gossip.to, { gossip: 'unused' }).risks.join('\n')).not.toMatch(/gossip/);
    expect(upgradeSteps(gossip.from, gossip.to, { gossip: 'relaxed' }).risks.join('\n')).toMatch(/back on in a later change/);
  });
});
