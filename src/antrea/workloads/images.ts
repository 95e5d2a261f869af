import type { AntreaRelease, ReleaseImages } from '../release';

export const DEFAULT_IMAGE_REGISTRY = 'antrea';

export type ImageName = keyof ReleaseImages;

export interface ImageOptions {
  /** the release the objects are built for: its images, tags, CRDs and facts */
  readonly release: AntreaRelease;
  /** registry/repository prefix, e.g. a mirror `registry.example.com/antrea`; @default 'antrea' */
  readonly imageRegistry?: string;
  /** digests pinning images, by `<image>:<version>` (`spec.antrea.imageDigests`); a pin of another release is not used */
  readonly imageDigests?: Readonly<Record<string, string>>;
}

/** `<imageRegistry>/<name>`, e.g. `antrea/antrea-agent-ubuntu`. */
export function imageRepository(image: ImageName, opts: ImageOptions): string {
  // a trailing slash in a mirror prefix would give `//`, which no registry accepts
  const registry = (opts.imageRegistry ?? DEFAULT_IMAGE_REGISTRY).replace(/\/+$/, '');
  return `${registry}/${opts.release.images[image]}`;
}

/** The key of an image's digest in `spec.antrea.imageDigests`: `<name>:<version>`, e.g. `antrea-mc-controller:v2.7.0`. */
export const imageDigestKey = (image: ImageName, release: AntreaRelease): string => `${release.images[image]}:${release.version}`;

/** `<imageRegistry>/<name>:<version>`, e.g. `antrea/antrea-agent-ubuntu:v2.7.0`, with `@<digest>` where the definition pins it. */
export const imageRef = (image: ImageName, opts: ImageOptions): string => {
  const digest = opts.imageDigests?.[imageDigestKey(image, opts.release)];
  return `${imageRepository(image, opts)}:${opts.release.version}${digest === undefined ? '' : `@${digest}`}`;
};

/** The parts of an image reference `[host[:port]/]path[:tag][@digest]`: the tag follows the last colon of the last path segment. */
export function parseImageReference(image: string): { readonly repository: string; readonly tag?: string; readonly digest?: string } {
  const at = image.indexOf('@');
  const name = at === -1 ? image : image.slice(0, at);
  const digest = at === -1 ? undefined : image.slice(at + 1);
  const colon = name.lastIndexOf(':');
  const tagged = colon > name.lastIndexOf('/');
  return {
    repository: tagged ? name.slice(0, colon) : name,
    ...(tagged && { tag: name.slice(colon + 1) }),
    ...(digest !== undefined && { digest }),
  };
}
