/** Kubernetes name formats (k8s.io/apimachinery validation), as the API server and webhooks check them. */

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export const DNS1123_LABEL_MAX = 63;
export const DNS1123_SUBDOMAIN_MAX = 253;
export const LABEL_VALUE_MAX = 63;

/** RFC-1123 label: Namespace names, Service export names, cluster IDs. */
export const isDns1123Label = (s: string): boolean => s.length <= DNS1123_LABEL_MAX && DNS1123_LABEL.test(s);

/** RFC-1123 subdomain: most object names. */
export const isDns1123Subdomain = (s: string): boolean => s.length <= DNS1123_SUBDOMAIN_MAX && DNS1123_SUBDOMAIN.test(s);

/** Why a string is not an RFC-1123 label, for messages; undefined when it is one. */
export function dns1123LabelProblem(s: string): string | undefined {
  if (s.length === 0) return 'is empty';
  if (s.length > DNS1123_LABEL_MAX) return `is ${s.length} characters long (at most ${DNS1123_LABEL_MAX})`;
  if (/[A-Z]/.test(s) && DNS1123_LABEL.test(s.toLowerCase())) return 'has upper-case letters';
  if (!DNS1123_LABEL.test(s)) return 'must consist of lower-case letters, digits and "-", and start and end with a letter or digit';
  return undefined;
}
