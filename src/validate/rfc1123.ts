/** RFC 1123 labels: what Kubernetes accepts as a Namespace name or a label value Antrea sets. */

export const LABEL_MAX_LENGTH = 63;

/** Why a string is not an RFC 1123 label, or undefined when it is one. */
export function labelProblem(value: string): string | undefined {
  if (value.length === 0) return 'it is empty';
  if (value.length > LABEL_MAX_LENGTH) return `it is ${value.length} characters long (at most ${LABEL_MAX_LENGTH})`;
  if (/[A-Z]/.test(value)) return 'it contains uppercase letters';
  if (/[^a-z0-9-]/.test(value)) return 'it contains characters other than a-z, 0-9 and "-"';
  if (!/^[a-z0-9]/.test(value) || !/[a-z0-9]$/.test(value)) return 'it must start and end with a letter or digit';
  return undefined;
}

/** A close valid label to suggest in a hint, e.g. `east-1` for `East_1`. */
export function suggestLabel(value: string): string | undefined {
  const label = value
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .slice(0, LABEL_MAX_LENGTH)
    .replace(/^-+|-+$/g, '');
  return label && label !== value && labelProblem(label) === undefined ? label : undefined;
}

export const LABEL_HINT = `use lowercase letters, digits and "-", start and end with a letter or digit, at most ${LABEL_MAX_LENGTH} characters`;
