import type { AntreaRelease } from './release';
import { v2_5_3 } from './v2.5.3';
import { v2_6_3 } from './v2.6.3';
import { v2_7_0 } from './v2.7.0';

/** The Antrea releases the compiler models, oldest first. Another release is a folder and a line here. */
export const RELEASES: readonly AntreaRelease[] = [v2_5_3, v2_6_3, v2_7_0];

/** The newest supported release: what `init` writes and what the examples build for. */
export const LATEST_RELEASE: AntreaRelease = RELEASES[RELEASES.length - 1]!;

export const SUPPORTED_ANTREA_VERSIONS: readonly string[] = RELEASES.map((r) => r.version);

/** The release a definition names, or undefined when the compiler does not model it. */
export const releaseFor = (version: string): AntreaRelease | undefined => RELEASES.find((r) => r.version === version);

export const isSupportedAntreaVersion = (version: string): boolean => releaseFor(version) !== undefined;
