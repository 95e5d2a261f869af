/** Kubernetes name limits (k8s.io/apimachinery validation) beyond RFC-1123 labels (see rfc1123.ts). */

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export const DNS1123_SUBDOMAIN_MAX = 253;
export const LABEL_VALUE_MAX = 63;

/** RFC-1123 subdomain: most object names. */
export const isDns1123Subdomain = (s: string): boolean => s.length <= DNS1123_SUBDOMAIN_MAX && DNS1123_SUBDOMAIN.test(s);
