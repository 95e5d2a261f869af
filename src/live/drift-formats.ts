// The formats of drift's report, apart from their renderer (render-drift.ts): the command's row
// (src/cli/drift.ts) names them without loading what compares a fleet.
export const DRIFT_FORMATS = ['text', 'json', 'markdown', 'github'] as const;
export type DriftFormat = (typeof DRIFT_FORMATS)[number];
