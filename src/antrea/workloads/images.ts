import type { AntreaRelease, ReleaseImages } from '../release';

export const DEFAULT_IMAGE_REGISTRY = 'antrea';

export type ImageName = keyof ReleaseImages;

export interface ImageOptions {
  /** the release the objects are built for: its images, tags, CRDs and facts */
  readonly release: AntreaRelease;
  /** registry/repository prefix, e.g. a mirror `registry.example.com/antrea`; @default 'antrea' */
  readonly imageRegistry?: string;
}

/** `<imageRegistry>/<name>`, e.g. `antrea/antrea-agent-ubuntu`. */
export function imageRepository(image: ImageName, opts: ImageOptions): string {
  // a trailing slash in a mirror prefix would give `//`, which no registry accepts
  const registry = (opts.imageRegistry ?? DEFAULT_IMAGE_REGISTRY).replace(/\/+$/, '');
  return `${registry}/${opts.release.images[image]}`;
}

/** `<imageRegistry>/<name>:<version>`, e.g. `antrea/antrea-agent-ubuntu:v2.7.0`. */
export const imageRef = (image: ImageName, opts: ImageOptions): string => `${imageRepository(image, opts)}:${opts.release.version}`;
