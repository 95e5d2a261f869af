// The back half's stage functions, loaded by the pipeline only once a run goes past validation
// (`clusterset validate` starts without cdk8s and the schemas).
export { clusterSetSources } from '../synth/synth-clusterset';
export { byFolder } from '../delivery';
export { LayoutCache, engineFilesByCluster, layoutBundle, layoutShared } from '../layout/layout';
