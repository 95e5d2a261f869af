import { UNSET } from '../model/unset';
import { field, text, type LiveCluster } from './live-cluster';

type Obj = Record<string, unknown>;

/** How git gets a member's token: a running ExternalSecret or SealedSecret says it; otherwise the flag, or UNSET. */
export function tokenSecretOf(c: LiveCluster, namespace: string, name: string, tokenSource: 'manual' | undefined): { value: Obj; comment?: string } {
  const withName = name === `${c.clusterID}-leader-token` ? {} : { name };
  const es = c.find('external-secrets.io/ExternalSecret', namespace, name)?.object;
  if (es) {
    const data = field(es, 'spec', 'data');
    const prop = (key: string) => (Array.isArray(data) ? (data as Obj[]).find((d) => d.secretKey === key) : undefined);
    return {
      value: {
        source: 'externalSecret',
        ...withName,
        externalSecret: {
          secretStoreRef: field(es, 'spec', 'secretStoreRef'),
          remoteRef: {
            key: text(prop('token'), 'remoteRef', 'key') ?? UNSET,
            tokenProperty: text(prop('token'), 'remoteRef', 'property') ?? 'token',
            caProperty: text(prop('ca.crt'), 'remoteRef', 'property') ?? 'ca.crt',
          },
          refreshInterval: text(es, 'spec', 'refreshInterval') ?? '1h',
        },
      },
      comment: 'from the ExternalSecret that runs',
    };
  }
  const sealed = c.find('bitnami.com/SealedSecret', namespace, name)?.object;
  if (sealed)
    return {
      value: { source: 'sealedSecret', ...withName, sealedSecret: { encryptedData: field(sealed, 'spec', 'encryptedData') } },
      comment: 'from the SealedSecret that runs',
    };
  if (tokenSource === 'manual') return { value: { source: 'manual', ...withName } };
  return {
    value: { source: UNSET, ...withName },
    comment: 'the dumps cannot tell how git should provide the token: manual (keep the copied Secret), externalSecret or sealedSecret',
  };
}
