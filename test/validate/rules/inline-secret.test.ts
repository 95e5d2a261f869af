import { expect, test } from 'vitest';
import type { Diagnostic } from '../../../src/diagnostics/diagnostic';
import { loadYaml } from '../../../src/load/load-yaml';
import { parseClusterSet } from '../../../src/model/parse-clusterset';
import { inlineSecret } from '../../../src/validate/rules/inline-secret';
import { runRawRules } from '../../../src/validate/run-rules';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

// made-up token material with the shapes of the real thing
const b64url = (s: string) => Buffer.from(s).toString('base64url');
const JWT = `${b64url('{"alg":"RS256","kid":"test"}')}.${b64url('{"sub":"system:serviceaccount:antrea-multicluster:b"}')}.c2lnbmF0dXJl`;
const JWT_BASE64 = Buffer.from(JWT).toString('base64');
const SEALED = 'AgBy3i4OJSWK+PiTySYZZA9rO43cGDEqAx0sErnOw0A2Ww7Ql1mHbm4VOPuZkQ9sR0Tk';

ruleTester(inlineSecret, {
  valid: [
    {
      name: 'sealed ciphertext and External Secrets references',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - clusterID: a
              tokenSecret:
                source: sealedSecret
                sealedSecret:
                  encryptedData: { ca.crt: ${SEALED}, token: ${SEALED} }
            - clusterID: b
              tokenSecret:
                source: externalSecret
                externalSecret:
                  secretStoreRef: { name: vault }
                  remoteRef: { key: antrea-mc/b, tokenProperty: token, caProperty: ca.crt }`,
    },
  ],
  invalid: [
    {
      name: 'a plain value under a token key, wherever it is',
      code: source`
        spec:
          antrea:
            version: ${LATEST}
            agentConfig: { token: s3cr3t }
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]`,
      diagnostics: [{ line: 4, column: 27 }],
    },
    {
      name: 'a JWT and a PEM block in values of any key',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - clusterID: b
              tokenSecret:
                source: externalSecret
                externalSecret:
                  secretStoreRef: { name: vault }
                  remoteRef: { key: ${JWT} }
          policies:
            - name: p
              spec:
                priority: 1
                note: |
                  -----BEGIN CERTIFICATE-----
                  MIIBszCCAVmgAwIBAgIUQ==
                  -----END CERTIFICATE-----`,
      diagnostics: [
        { line: 10, column: 29 },
        // a block scalar starts at its indicator
        { line: 15, column: 15 },
      ],
    },
    {
      name: 'a base64-encoded JWT pasted into encryptedData instead of kubeseal output',
      code: source`
        spec:
          antrea: { version: ${LATEST} }
          leader: { clusterID: a, server: https://a:6443 }
          clusters:
            - clusterID: b
              tokenSecret:
                source: sealedSecret
                sealedSecret:
                  encryptedData:
                    ca.crt: ${SEALED}
                    token: ${JWT_BASE64}`,
      diagnostics: [{ line: 11, column: 20 }],
    },
  ],
});

test('inline-secret fires even though the schema rejects the key', () => {
  const text = source`
    apiVersion: antrea-clusterset/v1alpha1
    kind: ClusterSetDefinition
    metadata: { name: test }
    spec:
      antrea: { version: ${LATEST} }
      leader: { clusterID: a, server: https://a:6443 }
      clusters:
        - clusterID: a
          tokenSecret:
            source: manual
            token: ${JWT}`;
  const diagnostics: Diagnostic[] = [];
  const loaded = loadYaml('test.yaml', text, diagnostics);
  expect(loaded).toBeDefined();
  runRawRules(loaded!, diagnostics, [inlineSecret]);
  parseClusterSet(loaded!, diagnostics);
  expect(diagnostics.map((d) => ({ code: d.code, line: d.line, column: d.column }))).toEqual([
    { code: 'inline-secret', line: 11, column: 16 },
    { code: 'schema', line: 11, column: 9 },
  ]);
});
