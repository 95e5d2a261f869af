// Definitions and plans the diagram tests draw: the examples, fleets, hostile names, and a plan
// with every impact class. Plans are compared on their definitions alone (no bundles built).
import { readdirSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { fleet } from '../../bench/fleet';
import { ClusterSetSchema, type ClusterSet } from '../../src/model/clusterset';
import { planChanges } from '../../src/plan/plan-changes';
import type { Plan } from '../../src/plan/plan';
import { example } from '../helpers/plan-revision';
import { LATEST } from '../helpers/releases';

export const define = (input: unknown): ClusterSet => ClusterSetSchema.parse(input);

export const EXAMPLES = readdirSync('clustersets')
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .map((f) => ({ name: f.replace(/\.yaml$/, ''), definition: define(parse(readFileSync(`clustersets/${f}`, 'utf8'))) }));

export { example };

export const fleetOf = (n: number): ClusterSet => define(fleet(n));

/** Strings that would break a diagram or inject into it if they were not escaped. */
export const HOSTILE = [
  'x"]; click L "javascript:alert(1)"; %%',
  '<img src=x onerror=alert(1)>',
  '`**bold**` [link](http://example.com)',
  '#quot; #60; &lt; ; #35;',
  'end\nsubgraph evil\nclick m1 call alert()\n%% comment',
  'style L fill:#f00;stroke:#0f0;',
  'a|b --> c:::evil -.-> d',
  '\u202eevil \u{1F680} \u0000\u001b[2J',
  '<script>alert(1)</script><a href="javascript:alert(1)">x</a>',
];

/** A ClusterSet whose every name, Namespace, address and description is hostile. */
export function hostileDefinition(members = 3, long = false): ClusterSet {
  const name = (i: number) => `${HOSTILE[i % HOSTILE.length]!}${long ? '\u{1F680}'.repeat(200) : ''}`;
  return define({
    apiVersion: 'antrea-clusterset/v1alpha1',
    kind: 'ClusterSetDefinition',
    metadata: { name: name(0) },
    spec: {
      antrea: { version: LATEST },
      leader: { clusterID: name(1), namespace: name(2), server: name(3) },
      clusters: [
        { clusterID: name(1), podCIDRs: [name(4)], serviceCIDR: name(5), gateways: [{ node: name(6), ip: name(7) }] },
        ...Array.from({ length: members }, (_, i) => ({
          clusterID: `${name(i + 2)}-${i}`,
          podCIDRs: [name(i)],
          serviceCIDR: name(i + 1),
          gateways: [{ node: name(i + 3) }],
          network: { tunnelType: 'vxlan' },
        })),
      ],
      services: HOSTILE.map((h, i) => ({ name: name(i), namespace: h, exportFrom: i % 2 ? '*' : [`${name(2)}-0`] })),
      tiers: HOSTILE.map((h, i) => ({ name: name(i), priority: 10 + i, description: h })),
      policies: HOSTILE.map((h, i) => ({ name: name(i + 1), spec: { tier: name(i) } })),
      delivery: {
        argocd: { namespace: name(4), project: name(5), repoURL: name(6) },
        flux: { namespace: name(7), sourceRef: { name: name(8) } },
      },
    },
  });
}

/** The plan between two definitions of one ClusterSet (either may be absent). */
export function planBetween(base: ClusterSet | undefined, head: ClusterSet | undefined): Plan {
  const revision = (d: ClusterSet | undefined) => ({
    outputs: [],
    definitions: new Map(d ? [[d.metadata.name, { definition: d, file: 'clustersets/x.yaml' }]] : []),
  });
  return planChanges(revision(base), revision(head));
}

/**
 * demo-clusterset changed in every class: member3 leaves (destructive), member2's Gateway moves
 * (disruptive), the leader's stretchedNetworkPolicy changes (rollout), a member joins and a
 * Service, a Tier and a policy are added (safe).
 */
export function everyImpactPlan(): Plan {
  const base = example('demo-clusterset') as unknown as { spec: Record<string, unknown[]> & { clusters: Record<string, unknown>[] } };
  const head = structuredClone(base);
  head.spec.clusters = head.spec.clusters.filter((c) => c.clusterID !== 'demo-cluster-member3');
  // a Gateway moves the supported way: the old one retired (gateway-removed refuses a plain drop)
  head.spec.clusters.find((c) => c.clusterID === 'demo-cluster-member2')!.gateways = [{ node: 'cl2-node2' }, { node: 'cl2-node1', retired: true }];
  head.spec.clusters.find((c) => c.clusterID === 'demo-cluster-leader')!.network = { stretchedNetworkPolicy: true };
  head.spec.clusters.push({ clusterID: 'demo-cluster-member4', podCIDRs: ['10.244.48.0/20'], serviceCIDR: '10.96.48.0/20', gateways: [{ node: 'cl4-node1' }] });
  head.spec.services = [...(head.spec.services ?? []), { name: 'web', namespace: 'shop', exportFrom: ['demo-cluster-member4'] }];
  head.spec.tiers = [{ name: 'platform-guard', priority: 20 }];
  head.spec.policies = [{ name: 'deny-all', spec: { priority: 1, tier: 'securityops', appliedTo: [{ namespaceSelector: {} }] } }];
  return planBetween(define(base), define(head));
}

/** A fleet of `n` members where every member's Gateway moves and one member leaves: a change that touches all of it. */
export function wideChangePlan(n: number): Plan {
  const base = fleet(n + 1) as unknown as { spec: { clusters: { clusterID: string; gateways?: { node: string; retired?: boolean }[] }[] } };
  const head = structuredClone(base);
  for (const c of head.spec.clusters) if (c.gateways) c.gateways = [{ node: `${c.clusterID}-node-2` }, ...c.gateways.map((g) => ({ ...g, retired: true }))];
  head.spec.clusters = head.spec.clusters.filter((c) => c.clusterID !== 'cluster-5');
  return planBetween(define(base), define(head));
}

/** The Mermaid source of every ```mermaid block in a Markdown text. */
export const mermaidBlocks = (markdown: string): string[] => [...markdown.matchAll(/```mermaid\n([\s\S]*?)```/g)].map((m) => m[1]!);
