/** Antrea releases the compiler models; another release is a new folder beside v2.7.0. */
export const SUPPORTED_ANTREA_VERSIONS = ['v2.7.0'] as const;
export type AntreaVersion = (typeof SUPPORTED_ANTREA_VERSIONS)[number];

export const isSupportedAntreaVersion = (v: string): v is AntreaVersion =>
  (SUPPORTED_ANTREA_VERSIONS as readonly string[]).includes(v);
