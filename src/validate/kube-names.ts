/** Kubernetes name limits (k8s.io/apimachinery validation) beyond RFC-1123 labels (see rfc1123.ts). */

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export const DNS1123_SUBDOMAIN_MAX = 253;
export const LABEL_VALUE_MAX = 63;

/** RFC-1123 subdomain: most object names. */
export const isDns1123Subdomain = (s: string): boolean => s.length <= DNS1123_SUBDOMAIN_MAX && DNS1123_SUBDOMAIN.test(s);

const LABEL_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

/** Why a label key is not a qualified name (apimachinery validation.IsQualifiedName), or undefined. */
export function labelKeyProblem(key: string): string | undefined {
  const parts = key.split('/');
  if (parts.length > 2) return 'it has more than one "/"';
  const [prefix, name] = parts.length === 2 ? parts : [undefined, parts[0]!];
  if (prefix !== undefined && (prefix === '' || !isDns1123Subdomain(prefix)))
    return `its prefix "${prefix}" is not a DNS subdomain (lowercase, at most ${DNS1123_SUBDOMAIN_MAX} characters)`;
  if (name === '') return 'its name is empty';
  if (name.length > LABEL_VALUE_MAX) return `its name is ${name.length} characters long (at most ${LABEL_VALUE_MAX})`;
  if (!LABEL_NAME.test(name)) return 'its name must consist of letters, digits, "-", "_" and ".", and start and end with a letter or digit';
  return undefined;
}

/** Why a label value is not valid (apimachinery validation.IsValidLabelValue), or undefined. */
export function labelValueProblem(value: string): string | undefined {
  if (value === '') return undefined;
  if (value.length > LABEL_VALUE_MAX) return `it is ${value.length} characters long (at most ${LABEL_VALUE_MAX})`;
  if (!LABEL_NAME.test(value)) return 'it must consist of letters, digits, "-", "_" and ".", and start and end with a letter or digit';
  return undefined;
}

/**
 * The characters a URL carries unencoded (RFC 3986: unreserved, reserved and `%`; printable ASCII
 * without space, `"`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`, `}`). Go's url.Parse, which every
 * Kubernetes client and both engines use, refuses control characters; the rest would reach the
 * outputs as they are.
 */
export const URL_TEXT = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/;

/**
 * A container image repository prefix as registries and the container runtimes parse it
 * (github.com/distribution/reference, regexp.go): a registry host (a domain or an IPv6 literal,
 * with a port) or a path component, then path components of lowercase letters and digits with
 * `.`, `_`, `__` or `-` between them; a trailing `/` is dropped (images.ts).
 */
const DOMAIN_COMPONENT = '[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?';
const PATH_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
export const IMAGE_PREFIX = new RegExp(
  `^(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*(?::[0-9]+)?|\\[[0-9A-Fa-f:]+\\](?::[0-9]+)?|${PATH_COMPONENT})(?:/${PATH_COMPONENT})*/?$`,
);
