import { defineClusterSet } from 'antrea-clusterset';

// A ClusterSet as data: a dedicated leader and two members, delivered by Argo CD.
export default defineClusterSet({
  apiVersion: 'antrea-clusterset/v1alpha1',
  kind: 'ClusterSetDefinition',
  metadata: { name: 'prod' },
  spec: {
    antrea: { version: 'v2.7.0' },
    leader: { clusterID: 'leader', server: 'https://leader.example.com:6443' },
    clusters: [
      { clusterID: 'leader', member: false, delivery: { argocd: { name: 'leader' } } },
      { clusterID: 'east', serviceCIDR: '10.96.0.0/16', gateways: [{ node: 'east-gw' }], delivery: { argocd: { name: 'east' } } },
      { clusterID: 'west', serviceCIDR: '10.112.0.0/16', gateways: [{ node: 'west-gw' }], delivery: { argocd: { name: 'west' } } },
    ],
    services: [{ name: 'nginx', namespace: 'web', exportFrom: '*' }],
    delivery: { argocd: { repoURL: 'https://github.com/example-org/fleet.git', targetRevision: 'main', path: 'dist' } },
  },
});
