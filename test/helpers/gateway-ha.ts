/**
 * #51: gateway-ha warns for every member with one Gateway candidate, which the examples and most
 * fixtures have (the user guide's topology). Tests about something else drop those warnings (and
 * the summary line they alone make) and keep asserting that nothing else is reported.
 */
const BLOCK = /^\S[^\n]*:\d+:\d+: warning gateway-ha: [^\n]*\n(?: [^\n]*\n)*/gm;
const SUMMARY_ONLY_WARNINGS = /^\n?0 errors, \d+ warnings? in \d+ files?\n$/m;

/** Text diagnostics on stderr without gateway-ha's; '' when those were all. */
export const withoutGatewayHa = (stderr: string): string => {
  const rest = stderr.replace(BLOCK, '');
  return SUMMARY_ONLY_WARNINGS.test(rest) && rest.replace(SUMMARY_ONLY_WARNINGS, '').trim() === '' ? '' : rest;
};

/** Diagnostics (JSON or in memory) without gateway-ha's. */
export const notGatewayHa = <T extends { code: string }>(diagnostics: readonly T[]): T[] => diagnostics.filter((d) => d.code !== 'gateway-ha');
