import type { KubeObject } from '../kube-object';

export type { KubeObject };

/** A typed model object (`@kubernetes-models/*` interfaces) as the plain data emit handles. */
export const asKubeObject = (o: { apiVersion: string; kind: string; metadata?: object }): KubeObject => o as unknown as KubeObject;
