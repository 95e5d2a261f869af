import { CLUSTER_SET_GATE, CLUSTER_SET_HEALTH, EXPECTED_MEMBERS_ANNOTATION } from '../../health/cluster-set-health';
import type { HealthRule } from '../../health/health-rule';
import { RESOURCE_EXPORT_HEALTH } from '../../health/resource-export-health';
import { SERVICE_EXPORT_HEALTH, SERVICE_EXPORT_WAITING_REASONS } from '../../health/service-export-health';

/**
 * The health rules of src/health/ in Flux's language: the CEL expressions of a `healthCheckExprs`
 * entry (health-rule.ts says how kustomize-controller evaluates them); the doc comment of each rule
 * says what it decides and from which upstream code.
 */

/** The expressions of one Flux `healthCheckExprs` entry (without apiVersion and kind). */
export interface CelHealthCheck {
  readonly inProgress?: string;
  readonly failed?: string;
  readonly current: string;
}

/** A CEL string literal; the values we put in expressions are fixed words, quoted all the same. */
export const celString = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** `has(<list>) && <list>.exists(c, <condition type and status>)`, with every field tested first. */
export function celCondition(list: string, type: string, status?: string): string {
  const statusTest = status === undefined ? '' : ` && has(c.status) && c.status == ${celString(status)}`;
  return `has(${list}) && ${list}.exists(c, has(c.type) && c.type == ${celString(type)}${statusTest})`;
}

// ClusterSet (cluster-set-health.ts)
const MEMBER = 'spec.leaders.exists(l, has(l.server))';
const ENTRIES = '(has(status.clusterStatuses) ? status.clusterStatuses : [])';
const EXPECTED = `(has(metadata.annotations) && ${celString(EXPECTED_MEMBERS_ANNOTATION)} in metadata.annotations ? int(metadata.annotations[${celString(EXPECTED_MEMBERS_ANNOTATION)}]) : 0)`;
const ENTRY_READY = celCondition('s.conditions', 'Ready', 'True');
const ENTRY_DOWN = celCondition('s.conditions', 'Ready', 'False');
const OBSERVED = 'has(status.conditions)';

// ServiceExport (service-export-health.ts)
const WAITING = `[${SERVICE_EXPORT_WAITING_REASONS.map(celString).join(', ')}]`;

const EXPRESSIONS = new Map<HealthRule, CelHealthCheck>([
  [
    CLUSTER_SET_HEALTH,
    {
      // a lost connection, on either side: the member's leader entry, or a member on the leader
      failed: `${OBSERVED} && ${ENTRIES}.exists(s, ${ENTRY_DOWN})`,
      current: `${OBSERVED} && (${MEMBER} ? ${celCondition('status.conditions', 'Ready', 'True')} && ${ENTRIES}.exists(s, ${ENTRY_READY}) : ${ENTRIES}.filter(s, ${ENTRY_READY}).size() >= ${EXPECTED})`,
    },
  ],
  [
    CLUSTER_SET_GATE,
    {
      failed: `${OBSERVED} && ${MEMBER} && ${ENTRIES}.exists(s, ${ENTRY_DOWN})`,
      current: `${OBSERVED} && (!(${MEMBER}) || ${celCondition('status.conditions', 'Ready', 'True')} && ${ENTRIES}.exists(s, ${ENTRY_READY}))`,
    },
  ],
  [
    RESOURCE_EXPORT_HEALTH,
    {
      failed: celCondition('status.conditions', 'Failure'),
      current: celCondition('status.conditions', 'Succeeded', 'True'),
    },
  ],
  [
    SERVICE_EXPORT_HEALTH,
    {
      failed: `has(status.conditions) && status.conditions.exists(c, has(c.type) && c.type == 'Valid' && has(c.status) && c.status == 'False' && !(has(c.reason) && c.reason in ${WAITING}))`,
      current: celCondition('status.conditions', 'Valid', 'True'),
    },
  ],
]);

/** A rule's CEL expressions; every rule of src/health/ has them (test/health/health-rules.test.ts evaluates each). */
export function celOf(rule: HealthRule): CelHealthCheck {
  const expressions = EXPRESSIONS.get(rule);
  if (expressions === undefined) throw new Error(`no CEL health check for ${rule.apiVersion} ${rule.kind}`);
  return expressions;
}
