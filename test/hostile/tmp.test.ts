import { it } from 'vitest';
import { marked } from 'marked';
import { releaseFor } from '../../src/antrea/releases';
import { ClusterSetSchema } from '../../src/model/clusterset';
import { effectiveClusters } from '../../src/model/effective';
import { planChanges } from '../../src/plan/plan-changes';
import { renderPlan } from '../../src/plan/render-plan';
import { clusterSetNotes } from '../../src/synth/notes';
const LATEST = 'v2.7.0';
it('x', () => {
  for (const payload of ['`id`\'"\\', 'a\nb']) {
    const def = (joining: string[]) =>
      ClusterSetSchema.parse({
        apiVersion: 'antrea-clusterset/v1alpha1',
        kind: 'ClusterSetDefinition',
        metadata: { name: `cs${payload}` },
        spec: {
          antrea: { version: LATEST },
          leader: { clusterID: 'lead', server: `https://lead.example.com:6443/${joining.length > 0 ? payload : ''}` },
          clusters: [
            { clusterID: 'lead', member: false },
            ...joining.map((id) => ({
              clusterID: id,
              namespace: `ns${payload}`,
              gateways: [{ node: `node${payload}` }],
              tokenSecret: {
                source: 'externalSecret',
                name: `t${payload}`,
                externalSecret: { secretStoreRef: { name: `s${payload}` }, remoteRef: { key: `k${payload}` } },
              },
            })),
          ],
          services: [{ name: `svc${payload}`, namespace: `app${payload}`, exportFrom: [...joining] }],
          tiers: [{ name: `tier${payload}`, priority: 10, description: payload }],
          delivery: { flux: { sourceRef: { name: `src${payload}` }, path: `dist${payload}` } },
        },
      });
    const side = (d: any) => ({ outputs: [], definitions: new Map([[d.metadata.name, { definition: d, file: 'x' }]]) });
    const a = def([`m${payload}`]);
    const md = renderPlan('markdown', planChanges(side(def([])), side(a)), { base: 'main', head: `work ${payload}` });
    const readme = clusterSetNotes(a, effectiveClusters(a), releaseFor(LATEST)!);
    for (const [n, t] of [
      ['plan', md],
      ['readme', readme],
    ] as const) {
      const html = marked.parse(t, { async: false }) as string;
      console.log(JSON.stringify(payload), n, [...html.matchAll(/<code>/g)].length, [...html.matchAll(/<br>/g)].length);
      if (n === 'plan') for (const l of t.split('\n')) if (l.includes('`') && /id/.test(l)) console.log(l.slice(0, 200));
      if (html.includes('<br>')) console.log(html.slice(html.indexOf('<br>') - 300, html.indexOf('<br>') + 50));
    }
  }
});
