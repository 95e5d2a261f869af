import type { DataPath } from '../../diagnostics/diagnostic';
import type { ModelRule, Report } from '../rule';

/**
 * The lists of a definition whose entries must be unique and that no other rule checks (clusters:
 * cluster-id-duplicate, services: export-duplicate, tiers: tier-conflict, policies: policy-name,
 * Pod CIDRs: pod-cidr-overlap): a cluster's Gateway Nodes (one Node object each: synth would
 * write the same Node twice) and a Service's exportFrom.
 */
export const listDuplicate: ModelRule = {
  id: 'list-duplicate',
  severity: 'error',
  description: 'an entry is listed twice: a Gateway Node of one cluster, or a cluster in a Service exportFrom',
  validate({ definition, report }) {
    definition.spec.clusters.forEach((cluster, c) => {
      reportRepeats(
        cluster.gateways.map((g) => g.node),
        (i) => ['spec', 'clusters', c, 'gateways', i, 'node'],
        (node) => ({
          message: `Gateway Node "${node}" of cluster "${cluster.clusterID}" is listed twice`,
          hint: 'list each candidate Gateway Node once; a Node has one gateway-ip annotation',
        }),
        report,
      );
    });
    definition.spec.services.forEach((service, s) => {
      if (service.exportFrom === '*') return;
      reportRepeats(
        service.exportFrom,
        (i) => ['spec', 'services', s, 'exportFrom', i],
        (id) => ({
          message: `cluster "${id}" is listed twice in the exportFrom of service "${service.namespace}/${service.name}"`,
          hint: 'list each exporting cluster once',
        }),
        report,
      );
    });
  },
};

/** Each entry equal to an earlier one, reported at its own position with the first as related. */
function reportRepeats(
  values: readonly string[],
  at: (i: number) => DataPath,
  what: (v: string) => Pick<Report, 'message' | 'hint'>,
  report: (r: Report) => void,
) {
  const first = new Map<string, number>();
  values.forEach((v, i) => {
    const earlier = first.get(v);
    if (earlier === undefined) first.set(v, i);
    else report({ path: at(i), ...what(v), related: [{ path: at(earlier), message: `"${v}" is first listed here` }] });
  });
}
