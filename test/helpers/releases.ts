import type { AntreaRelease } from '../../src/antrea/release';
import { LATEST_RELEASE, RELEASES } from '../../src/antrea/releases';

/**
 * The supported releases as tests see them, read from the registry (`src/antrea/releases.ts`), so
 * that adding or retiring a release edits its folder and the registry line, never a test. A test
 * that needs "any supported release" uses `LATEST`; a test of one release's behaviour picks the
 * release by the fact it tests (`releaseWhere`), never by its name; a table over releases runs
 * over `SUPPORTED`.
 */
export const SUPPORTED: readonly AntreaRelease[] = RELEASES;

/** The newest supported release's version (`vX.Y.Z`), for a definition that needs any supported release. */
export const LATEST: string = LATEST_RELEASE.version;

/** Every supported version, oldest first. */
export const SUPPORTED_VERSIONS: readonly string[] = RELEASES.map((r) => r.version);

/**
 * The oldest supported release with the given fact: `releaseWhere((r) => r.facts.perMemberCredentials)`
 * is "the first release with per-member credentials". Throws when no supported release has it, so
 * a test whose fact has left the supported range fails loudly instead of testing nothing.
 */
export function releaseWhere(fact: (release: AntreaRelease) => boolean, what = fact.toString()): AntreaRelease {
  const found = RELEASES.find(fact);
  if (!found) throw new Error(`no supported release has ${what}`);
  return found;
}

/** The newest supported release with the given fact (e.g. "the last release before per-member credentials"). */
export function lastReleaseWhere(fact: (release: AntreaRelease) => boolean, what = fact.toString()): AntreaRelease {
  const found = RELEASES.findLast(fact);
  if (!found) throw new Error(`no supported release has ${what}`);
  return found;
}

/** The versions of every supported release with the fact, oldest first (possibly none). */
export const versionsWhere = (fact: (release: AntreaRelease) => boolean): string[] => RELEASES.filter(fact).map((r) => r.version);

/**
 * The move across the v2.7 credential change: from the newest release whose members share one
 * credential to the first with one credential per member (`facts.perMemberCredentials`), the
 * upgrade whose steps the notes, plan and checklist spell out.
 */
export const perMemberCredentialsMove = (): { readonly from: string; readonly to: string } => ({
  from: lastReleaseWhere((r) => !r.facts.perMemberCredentials, 'a shared member credential').version,
  to: releaseWhere((r) => r.facts.perMemberCredentials, 'per-member credentials').version,
});

/** The move across the v2.7 gossip encryption: from the newest release without the memberlist key to the first with it (`facts.memberlistKeys`). */
export const gossipEncryptionMove = (): { readonly from: string; readonly to: string } => ({
  from: lastReleaseWhere((r) => !r.facts.memberlistKeys, 'gossip without a memberlist key').version,
  to: releaseWhere((r) => r.facts.memberlistKeys, 'a memberlist key').version,
});

/** `version` moved by `minors` minor versions, at the given patch: `shiftMinor('v2.7.0', -4, 1)` is v2.3.1 (for versions around the supported ones). */
export function shiftMinor(version: string, minors: number, patch = 0): string {
  const [major, minor] = version.slice(1).split('.').map(Number);
  return `v${String(major)}.${minor! + minors}.${patch}`;
}
