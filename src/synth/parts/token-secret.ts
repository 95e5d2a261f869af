import { TokenExternalSecret } from '../constructs/token-external-secret';
import { TokenSealedSecret } from '../constructs/token-sealed-secret';
import type { BundlePart } from './context';

/**
 * On a member, the source of the Secret its ClusterSet names. `manual` emits nothing: the
 * token exists only once the leader has applied its bundle, and the notes give the copy command.
 */
export const tokenSecret: BundlePart = (chart, { cluster }) => {
  if (!cluster.isMember) return;
  const source = cluster.cluster.tokenSecret;
  const target = { name: cluster.tokenSecretName, namespace: cluster.cluster.namespace };
  switch (source.source) {
    case 'manual':
      return;
    case 'externalSecret':
      new TokenExternalSecret(chart, 'token-external-secret', { ...target, ...source.externalSecret });
      return;
    case 'sealedSecret':
      new TokenSealedSecret(chart, 'token-sealed-secret', { ...target, encryptedData: source.sealedSecret.encryptedData });
      return;
  }
};
