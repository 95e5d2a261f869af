/**
 * The string formats of the CRD schemas we model, as the Kubernetes API server checks them
 * (its OpenAPI format registry); a format it does not know is accepted. Used by validator.ts.
 */
import { isIPv4, isIPv6 } from 'node:net';

const INT32 = 2 ** 31;
const INT64 = 2 ** 63;
const FLOAT32_MAX = 3.4028234663852886e38;

const isCidr = (s: string): boolean => {
  const slash = s.indexOf('/');
  if (slash < 0) return false;
  const [addr, bits] = [s.slice(0, slash), s.slice(slash + 1)];
  if (!/^(0|[1-9][0-9]{0,2})$/.test(bits)) return false;
  if (isIPv4(addr)) return Number(bits) <= 32;
  return isIPv6Strict(addr) && Number(bits) <= 128;
};
// Go's net.ParseIP has no zone support (`fe80::1%eth0`), Node's parser does
const isIPv6Strict = (s: string): boolean => !s.includes('%') && isIPv6(s);

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/;
const isDateTime = (s: string): boolean => {
  const m = DATE_TIME.exec(s);
  if (!m) return false;
  const [y, mo, d, h, mi, sec] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const daysInMonth = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  const offsetOk = m[9] === undefined || (Number(m[9]) < 24 && Number(m[10]) < 60);
  return mo >= 1 && mo <= 12 && d >= 1 && d <= daysInMonth && h < 24 && mi < 60 && sec < 61 && offsetOk;
};

// Go durations ("1h30m", "300ms"), plus the day/week units kube-openapi also accepts.
const GO_DURATION = /^[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h))+$/;
const UNIT_DURATION = /^(\d+\s*(ns|us|µs|ms|s|m|h|d|w|nanoseconds?|microseconds?|milliseconds?|seconds?|minutes?|hours?|days?|weeks?)\s*)+$/;
const isDuration = (s: string): boolean => s === '0' || GO_DURATION.test(s) || UNIT_DURATION.test(s);

// standard, padded base64 (Go's base64.StdEncoding)
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

type NumberFormat = { type: 'number'; validate: (n: number) => boolean };
const numberFormat = (validate: (n: number) => boolean): NumberFormat => ({ type: 'number', validate });

/** The formats the Antrea CRDs use, checked as the API server would. */
export const FORMATS: Record<string, ((s: string) => boolean) | NumberFormat> = {
  int32: numberFormat((n) => Number.isInteger(n) && n >= -INT32 && n < INT32),
  int64: numberFormat((n) => Number.isInteger(n) && n >= -INT64 && n < INT64),
  float: numberFormat((n) => Number.isFinite(n) && Math.abs(n) <= FLOAT32_MAX),
  double: numberFormat((n) => Number.isFinite(n)),
  byte: (s) => BASE64.test(s),
  'date-time': isDateTime,
  date: (s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && isDateTime(`${s}T00:00:00Z`),
  duration: isDuration,
  ipv4: (s) => isIPv4(s),
  ipv6: isIPv6Strict,
  cidr: isCidr,
  uuid: (s) => /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(s),
  mac: (s) => /^([0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}$/.test(s),
  hostname: (s) => s.length <= 253 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/i.test(s),
};

const FORMAT_NOUNS: Record<string, string> = {
  int32: 'a 32-bit integer',
  int64: 'a 64-bit integer',
  float: 'a 32-bit float',
  double: 'a finite number',
  byte: 'base64-encoded data',
  'date-time': 'an RFC 3339 date-time',
  date: 'a date (YYYY-MM-DD)',
  duration: 'a duration such as "1h30m"',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
  cidr: 'a CIDR such as "10.0.0.0/16"',
};
export const formatNoun = (f: string): string => FORMAT_NOUNS[f] ?? `a valid ${f}`;
