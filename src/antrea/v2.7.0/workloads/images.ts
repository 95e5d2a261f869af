import { ANTREA_VERSION } from './constants';

export const DEFAULT_IMAGE_REGISTRY = 'antrea';

/** Image repositories (without registry) of the v2.7.0 release. */
export const IMAGES = {
  agent: 'antrea-agent-ubuntu',
  controller: 'antrea-controller-ubuntu',
  mcController: 'antrea-mc-controller',
} as const;

export type ImageName = keyof typeof IMAGES;

export interface ImageOptions {
  readonly version: typeof ANTREA_VERSION;
  /** registry/repository prefix, e.g. a mirror `registry.example.com/antrea`; @default 'antrea' */
  readonly imageRegistry?: string;
}

/** `<imageRegistry>/<name>:<version>`, e.g. `antrea/antrea-agent-ubuntu:v2.7.0`. */
export function imageRef(image: ImageName, opts: ImageOptions): string {
  // a trailing slash in a mirror prefix would give `//`, which no registry accepts
  const registry = (opts.imageRegistry ?? DEFAULT_IMAGE_REGISTRY).replace(/\/+$/, '');
  return `${registry}/${IMAGES[image]}:${opts.version}`;
}
