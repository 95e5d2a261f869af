export { coreCrds } from './core';
export { leaderCrds, memberCrds } from './multicluster';
