import type { Diagnostic } from '../diagnostics/diagnostic';
import type { ParsedClusterSet } from '../model/parse-clusterset';

/**
 * An Antrea release change whose definition does not say what the clusters run now: the plan
 * reads the base's release and lists the steps, but the ClusterSet's README, built from the head
 * alone, writes "Upgrading from" only with `spec.antrea.upgradeFrom`. Synth cannot infer it: its
 * output must not depend on git history or on the previous dist/ (a fresh clone, `--rebuild` and
 * an incremental run all write the same bytes), so `plan`, which reads both revisions, warns.
 */
export function upgradeFromMissing(base: readonly ParsedClusterSet[], head: readonly ParsedClusterSet[], diagnostics: Diagnostic[]): void {
  const before = new Map(base.map((p) => [p.definition.metadata.name, p.definition.spec.antrea.version]));
  for (const { definition, source } of head) {
    const from = before.get(definition.metadata.name);
    const { version, upgradeFrom } = definition.spec.antrea;
    if (from === undefined || from === version || upgradeFrom === from) continue;
    const path = upgradeFrom === undefined ? ['spec', 'antrea', 'version'] : ['spec', 'antrea', 'upgradeFrom'];
    diagnostics.push({
      code: 'upgrade-from-missing',
      severity: 'warning',
      message:
        upgradeFrom === undefined
          ? `Antrea changes from ${from} to ${version} without spec.antrea.upgradeFrom: the ClusterSet's README gets no "Upgrading from" section`
          : `spec.antrea.upgradeFrom is ${upgradeFrom}, but the base revision runs ${from}`,
      file: source.file,
      path,
      ...source.locate(path),
      hint: `set \`upgradeFrom: ${from}\` under spec.antrea for this change, and remove it once every cluster runs ${version}`,
    });
  }
}
