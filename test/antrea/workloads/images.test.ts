import { expect, test } from 'vitest';
import { imageRef, parseImageReference, type ImageName } from '../../../src/antrea/workloads';
import { SUPPORTED } from '../../helpers/releases';

// every release: the image names are the release's, the tag is its version
test.each(
  SUPPORTED.flatMap((release) => {
    const { agent, controller, mcController } = release.images;
    const v = release.version;
    return [
      ['agent', undefined, `antrea/${agent}:${v}`],
      ['controller', undefined, `antrea/${controller}:${v}`],
      ['mcController', undefined, `antrea/${mcController}:${v}`],
      ['agent', 'antrea', `antrea/${agent}:${v}`],
      ['agent', 'registry.example.com:5000/mirror/antrea', `registry.example.com:5000/mirror/antrea/${agent}:${v}`],
      ['mcController', 'harbor.local/antrea/', `harbor.local/antrea/${mcController}:${v}`],
    ].map(([image, imageRegistry, expected]) => [image as ImageName, imageRegistry, expected!, release] as const);
  }),
)('%s from %s is %s', (image, imageRegistry, expected, release) => {
  expect(imageRef(image, { release, imageRegistry })).toBe(expected);
});

// a pin of this release's image is appended; a pin of another release's is not (#40 item 2)
test.each(SUPPORTED)('$version: a digest pins the image of its own release only', (release) => {
  const digest = `sha256:${'d4'.repeat(32)}`;
  const own = `${release.images.mcController}:${release.version}`;
  expect(imageRef('mcController', { release, imageDigests: { [own]: digest } })).toBe(`antrea/${own}@${digest}`);
  expect(imageRef('mcController', { release, imageDigests: { [`${release.images.mcController}:v0.0.1`]: digest } })).toBe(`antrea/${own}`);
  expect(imageRef('agent', { release, imageDigests: { [own]: digest } })).toBe(`antrea/${release.images.agent}:${release.version}`);
});

test.each([
  ['antrea/antrea-mc-controller:v2.7.0', { repository: 'antrea/antrea-mc-controller', tag: 'v2.7.0' }],
  [
    `antrea/antrea-mc-controller:v2.7.0@sha256:${'e5'.repeat(32)}`,
    { repository: 'antrea/antrea-mc-controller', tag: 'v2.7.0', digest: `sha256:${'e5'.repeat(32)}` },
  ],
  ['registry.example.com:5000/mirror/antrea-agent-ubuntu:v2.6.3', { repository: 'registry.example.com:5000/mirror/antrea-agent-ubuntu', tag: 'v2.6.3' }],
  [
    `registry.example.com:5000/mirror/antrea-agent-ubuntu@sha256:${'e5'.repeat(32)}`,
    { repository: 'registry.example.com:5000/mirror/antrea-agent-ubuntu', digest: `sha256:${'e5'.repeat(32)}` },
  ],
  ['antrea-mc-controller', { repository: 'antrea-mc-controller' }],
])('%s', (image, parts) => {
  expect(parseImageReference(image)).toEqual(parts);
});
