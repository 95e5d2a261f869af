import { expect, test } from 'vitest';
import { imageRef, type ImageName } from '../../../src/antrea/workloads';
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
