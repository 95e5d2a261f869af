import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { validateDefinitions } from '../../../src/pipeline/pipeline';
import { effectiveClusters } from '../../../src/model/effective';
import { deliverySources } from '../../../src/delivery';
import { deliveryNameCollision } from '../../../src/validate/rules/delivery-name-collision';
import { LATEST } from '../../helpers/releases';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';

const argoOnly = 'argocd: { repoURL: https://git.example.com/fleet.git }';
const hubFlux = 'flux: { sourceRef: { name: fleet } }';

/**
 * A ClusterSet delivered by `engines`, whose leader is `leader` (a dedicated one when
 * `dedicated`) and whose member `a` exports a Service from `namespace`.
 */
const fleet = ({
  leader,
  other,
  dedicated = true,
  namespace = 'demo',
  engines = [argoOnly, hubFlux],
}: {
  leader: string;
  other?: string;
  dedicated?: boolean;
  namespace?: string;
  engines?: readonly string[];
}) => source`
  spec:
    antrea: { version: ${LATEST} }
    leader: { clusterID: ${leader}, server: https://l:6443 }
    clusters:
      - { clusterID: ${leader}, member: ${!dedicated}, delivery: { argocd: { name: l }, flux: { kubeConfigSecretRef: { name: kl } } } }
      - { clusterID: a, serviceCIDR: 10.96.0.0/16, delivery: { argocd: { name: a }, flux: { kubeConfigSecretRef: { name: ka } } } }
      - { clusterID: ${other ?? 'b'}, serviceCIDR: 10.97.0.0/16, delivery: { argocd: { name: b }, flux: { kubeConfigSecretRef: { name: kb } } } }
    services:
      - { name: web, namespace: ${namespace}, exportFrom: [a] }
    delivery:
      ${engines.join('\n      ')}`;

ruleTester(deliveryNameCollision, {
  valid: [
    { name: 'distinct IDs and an ordinary Namespace', code: fleet({ leader: 'hub' }) },
    { name: 'an ID ending in -exports whose prefix exports nothing', code: fleet({ leader: 'b-exports' }) },
    // one Flux per cluster: each cluster's Kustomizations live on its own Flux
    {
      name: 'a Namespace named like a layer, each cluster with its own Flux',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a-exports, server: https://l:6443 }
          clusters:
            - { clusterID: a-exports, member: false }
            - { clusterID: a, serviceCIDR: 10.96.0.0/16 }
            - { clusterID: b, serviceCIDR: 10.97.0.0/16 }
          services:
            - { name: web, namespace: 0-namespaces-crds, exportFrom: [a] }
          delivery:
            flux: { sourceRef: { name: fleet } }`,
    },
    { name: 'no delivery engine: nothing is generated', code: fleet({ leader: 'a-exports', engines: ['{}'] }).replace('delivery:\n    {}', 'delivery: {}') },
    { name: 'a cluster named like the folder of an engine the ClusterSet does not use', code: fleet({ leader: 'hub', other: 'flux', engines: [argoOnly] }) },
  ],
  invalid: [
    // its bundle (with a root kustomization.yaml) would sit in dist/<cs>/flux/, which the hub applies
    {
      name: 'a cluster named flux, delivered by Flux',
      code: fleet({ leader: 'hub', other: 'flux', engines: [hubFlux] }),
      diagnostics: [{ line: 7, column: 20 }],
    },
    {
      name: 'a cluster named argocd, delivered by Argo CD',
      code: fleet({ leader: 'hub', other: 'argocd', engines: [argoOnly] }),
      diagnostics: [{ line: 7, column: 20 }],
    },
    {
      // the member a's exports Application is <cs>-a-exports, the leader's Application too
      name: 'Argo CD: the dedicated leader a-exports and the exports of member a',
      code: fleet({ leader: 'a-exports', engines: [argoOnly] }),
      diagnostics: [{ line: 6, column: 20, related: [{ line: 5, column: 20 }] }],
    },
    {
      name: 'Argo CD: a later member a-exports',
      code: fleet({ leader: 'hub', other: 'a-exports', engines: [argoOnly] }),
      diagnostics: [{ line: 7, column: 20, related: [{ line: 6, column: 20 }] }],
    },
    {
      // the leader's first layer <cs>-a-exports-0-namespaces-crds is also a's exports of that Namespace
      name: 'hub Flux: a Namespace named like a layer of the cluster <id>-exports',
      code: fleet({ leader: 'a-exports', namespace: '0-namespaces-crds', engines: [hubFlux] }),
      diagnostics: [{ line: 6, column: 20, related: [{ line: 5, column: 20 }] }],
    },
    {
      name: 'both engines: one report per colliding pair of clusters',
      code: fleet({ leader: 'a-exports', namespace: '0-namespaces-crds' }),
      diagnostics: [{ line: 6, column: 20, related: [{ line: 5, column: 20 }] }],
    },
  ],
});

// The rule builds only the clusters whose IDs are dash-prefixed (east, east-…): sound as long as
// every engine object of a cluster is named <clusterset>-<clusterID>, or that plus "-" and more,
// or a hashed shortening of such a name. A new unit named otherwise fails here first.
test('every engine object of a cluster is named <clusterset>-<clusterID>[-…]', async () => {
  const files = ['clustersets', ...readdirSync('test/fixtures/compile').map((d) => `test/fixtures/compile/${d}`)].flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => join(dir, f)),
  );
  let checked = 0;
  // one at a time: the fixtures reuse cluster IDs across definitions
  for (const file of files) {
    const { parsed, diagnostics } = await validateDefinitions([file]);
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const { definition } = parsed[0]!;
    const clusters = effectiveClusters(definition);
    deliverySources(definition, clusters).clusters.forEach((delivery, i) => {
      const prefix = `${definition.metadata.name}-${clusters[i]!.clusterID}`;
      for (const { object } of delivery.build()) {
        const name = object.metadata.name;
        const full = name === prefix || name.startsWith(`${prefix}-`);
        // engineName: the first 54 characters of the full name, then "-" and 8 hex digits of its hash
        const kept = name.slice(0, -9);
        const hashed = /-[0-9a-f]{8}$/.test(name) && (kept.startsWith(prefix) || prefix.startsWith(kept));
        expect(full || hashed, `${object.kind} ${name} of ${prefix}`).toBe(true);
        checked++;
      }
    });
  }
  expect(checked).toBeGreaterThan(20);
});
