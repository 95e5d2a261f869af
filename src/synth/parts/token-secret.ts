import { tokenExternalSecret } from '../objects/token-external-secret';
import { tokenSealedSecret } from '../objects/token-sealed-secret';
import type { BundlePart } from './context';

/**
 * On a member, the source of the Secret its ClusterSet names. `manual` emits nothing: the
 * token exists only once the leader has applied its bundle, and the notes give the copy command.
 */
export const tokenSecret: BundlePart = ({ cluster }) => {
  if (!cluster.isMember) return [];
  const source = cluster.cluster.tokenSecret;
  const target = { name: cluster.tokenSecretName, namespace: cluster.cluster.namespace };
  switch (source.source) {
    case 'manual':
      return [];
    case 'externalSecret':
      return [tokenExternalSecret({ ...target, ...source.externalSecret })];
    case 'sealedSecret':
      return [tokenSealedSecret({ ...target, encryptedData: source.sealedSecret.encryptedData })];
  }
};
