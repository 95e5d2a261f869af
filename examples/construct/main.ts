// A cdk8s app of your own with the ClusterSet in it: `npx cdk8s synth` writes one manifest per
// chart (one per cluster, one per delivery engine) holding the objects `clusterset synth` writes.
import { App } from 'cdk8s';
import { AntreaClusterSet } from 'antrea-clusterset';
import prod from './prod.js';

const app = new App();
const clusterSet = new AntreaClusterSet(app, 'prod', { definition: prod });
// each cluster's chart is yours to extend, e.g. with your own objects for that cluster
console.error(`charts: ${Object.keys(clusterSet.charts).join(', ')}`);
app.synth();
