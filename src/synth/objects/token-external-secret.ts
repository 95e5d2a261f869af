import type { KubeObject } from '../../kube/kube-object';

export interface TokenExternalSecretProps {
  /** name of the Secret the member ClusterSet refers to */
  readonly name: string;
  /** member controller Namespace: the ClusterSet reads its token Secret there */
  readonly namespace: string;
  readonly secretStoreRef: { readonly kind: string; readonly name: string };
  readonly remoteRef: { readonly key: string; readonly tokenProperty: string; readonly caProperty: string };
  readonly refreshInterval: string;
}

/**
 * `external-secrets.io/v1`: External Secrets Operator serves only v1 since v0.17 (v1beta1, the
 * newest version our schema package models, has the same ExternalSecret schema; see
 * layout/schemas.ts).
 */
export const EXTERNAL_SECRET_API_VERSION = 'external-secrets.io/v1';

/**
 * The member's leader token, materialized by External Secrets Operator as the Opaque Secret
 * (keys `ca.crt` and `token`) that the member ClusterSet names. Guarded: the Secret is owned by
 * this object, so pruning it would disconnect the member.
 */
export function tokenExternalSecret(props: TokenExternalSecretProps): KubeObject {
  const { key, caProperty, tokenProperty } = props.remoteRef;
  return {
    apiVersion: EXTERNAL_SECRET_API_VERSION,
    kind: 'ExternalSecret',
    metadata: { name: props.name, namespace: props.namespace },
    spec: {
      refreshInterval: props.refreshInterval,
      secretStoreRef: { kind: props.secretStoreRef.kind, name: props.secretStoreRef.name },
      target: {
        name: props.name,
        creationPolicy: 'Owner',
        // keep the last good token if the remote entry disappears
        deletionPolicy: 'Retain',
        template: { type: 'Opaque' },
      },
      data: [
        { secretKey: 'ca.crt', remoteRef: { key, property: caProperty } },
        { secretKey: 'token', remoteRef: { key, property: tokenProperty } },
      ],
    },
  };
}
