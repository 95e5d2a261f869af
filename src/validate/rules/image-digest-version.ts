import type { ModelRule } from '../rule';

/**
 * A digest pins one image of one release: the bundles run `<image>:<version>@<digest>`, and the
 * container runtime pulls by the digest alone (the tag is only read by people). A pin of another
 * release than `spec.antrea.version`, left behind when the version moved, would run the old
 * image with the new release's configuration; the bundles use no such pin, and this rule says so.
 */
export const imageDigestVersion: ModelRule = {
  id: 'image-digest-version',
  severity: 'error',
  description: 'spec.antrea.imageDigests pins an image of another release than spec.antrea.version, or an image the release does not have',
  validate({ definition, release, report }) {
    const { version, imageDigests } = definition.spec.antrea;
    if (!release || !imageDigests) return;
    const images = Object.values(release.images);
    for (const key of Object.keys(imageDigests)) {
      const colon = key.lastIndexOf(':');
      const image = key.slice(0, colon);
      const pinned = key.slice(colon + 1);
      const path = ['spec', 'antrea', 'imageDigests', key];
      if (!images.includes(image))
        report({
          path,
          key: true,
          message: `${image} is not an image of Antrea ${version}`,
          hint: `its images are ${images.join(', ')}`,
        });
      else if (pinned !== version)
        report({
          path,
          key: true,
          message: `the digest of ${key} pins release ${pinned}, but spec.antrea.version is ${version}`,
          hint: `a digest pins one release's image: replace the pin by the digest of ${image}:${version}, or remove it`,
          related: [{ path: ['spec', 'antrea', 'version'], message: 'the release the bundles are built for' }],
        });
    }
  },
};
