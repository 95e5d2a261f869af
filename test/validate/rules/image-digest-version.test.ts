import { imageDigestVersion } from '../../../src/validate/rules/image-digest-version';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';
import { LATEST_RELEASE } from '../../../src/antrea/releases';

const DIGEST = `sha256:${'c3'.repeat(32)}`;
const MC = LATEST_RELEASE.images.mcController;
const AGENT = LATEST_RELEASE.images.agent;

// A digest pins one image of one release (#40 item 2): a pin of another release, or of an image
// the release does not have, would run an image the version does not say.
ruleTester(imageDigestVersion, {
  valid: [
    {
      name: "pins of the release's own images",
      code: source`
        spec:
          antrea:
            version: ${LATEST}
            imageDigests:
              ${MC}:${LATEST}: ${DIGEST}
              ${AGENT}:${LATEST}: ${DIGEST}
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]`,
    },
  ],
  invalid: [
    {
      name: 'a pin left from the release before (the version moved, the digest did not)',
      code: source`
        spec:
          antrea:
            version: ${LATEST}
            imageDigests:
              ${MC}:v0.0.1: ${DIGEST}
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]`,
      diagnostics: [{ line: 5, column: 7, related: [{ line: 3, column: 14 }] }],
    },
    {
      name: 'an image the release does not have',
      code: source`
        spec:
          antrea:
            version: ${LATEST}
            imageDigests:
              antrea-agent:${LATEST}: ${DIGEST}
          leader: { clusterID: a, server: https://a:6443 }
          clusters: [{ clusterID: a }]`,
      diagnostics: [{ line: 5, column: 7 }],
    },
  ],
});
