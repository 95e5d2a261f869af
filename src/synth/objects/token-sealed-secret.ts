import type { KubeObject } from '../../kube/kube-object';

export interface TokenSealedSecretProps {
  /** name of the Secret the member ClusterSet refers to */
  readonly name: string;
  /** member controller Namespace: the ClusterSet reads its token Secret there */
  readonly namespace: string;
  /** kubeseal output, sealed with this member's certificate for this name and Namespace */
  readonly encryptedData: { readonly 'ca.crt': string; readonly token: string };
}

/**
 * The member's leader token as a Bitnami SealedSecret: only ciphertext enters git, and the
 * member's sealed-secrets controller unseals it into the Opaque Secret the ClusterSet names.
 */
export const tokenSealedSecret = (props: TokenSealedSecretProps): KubeObject => ({
  apiVersion: 'bitnami.com/v1alpha1',
  kind: 'SealedSecret',
  metadata: { name: props.name, namespace: props.namespace },
  spec: {
    encryptedData: { 'ca.crt': props.encryptedData['ca.crt'], token: props.encryptedData.token },
    template: { metadata: { name: props.name, namespace: props.namespace }, type: 'Opaque' },
  },
});
