import { v2_7_0 } from '../../../src/antrea/v2.7.0';
import { expect, test } from 'vitest';
import { imageRef, type ImageName } from '../../../src/antrea/workloads';

test.each<[ImageName, string | undefined, string]>([
  ['agent', undefined, 'antrea/antrea-agent-ubuntu:v2.7.0'],
  ['controller', undefined, 'antrea/antrea-controller-ubuntu:v2.7.0'],
  ['mcController', undefined, 'antrea/antrea-mc-controller:v2.7.0'],
  ['agent', 'antrea', 'antrea/antrea-agent-ubuntu:v2.7.0'],
  ['agent', 'registry.example.com:5000/mirror/antrea', 'registry.example.com:5000/mirror/antrea/antrea-agent-ubuntu:v2.7.0'],
  ['mcController', 'harbor.local/antrea/', 'harbor.local/antrea/antrea-mc-controller:v2.7.0'],
])('%s from %s is %s', (image, imageRegistry, expected) => {
  expect(imageRef(image, { release: v2_7_0, imageRegistry })).toBe(expected);
});
