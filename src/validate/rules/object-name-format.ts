import { ALL_ENGINES } from '../../delivery/registry';
import type { EngineSetting } from '../../delivery/engine';
import type { DataPath } from '../../diagnostics/diagnostic';
import { firstUnprintable, printable } from '../../diagnostics/printable';
import { IMAGE_PREFIX, isDns1123Subdomain, URL_TEXT } from '../kube-names';
import { LABEL_HINT, labelProblem } from '../rfc1123';
import type { ModelRule, Report } from '../rule';

const SUBDOMAIN_HINT = 'use lowercase letters, digits, "-" and ".", start and end each part with a letter or digit, at most 253 characters';
/** A Secret data key (k8s.io/apimachinery IsConfigMapKey). */
const SECRET_KEY = /^[-._a-zA-Z0-9]+$/;
/** A Go duration as Flux and External Secrets parse it (time.ParseDuration), not negative. */
const DURATION = /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/;
/**
 * The longest name an object can have when the bundle names its file `<Kind>.<name>.yaml` or
 * `<Kind>.<namespace>.<name>.yaml` (layout/layout.ts, fileNameOf): a file name has at most 255 bytes.
 */
const fileNameMax = (kind: string, namespace?: string): number => 255 - `${kind}.${namespace === undefined ? '' : `${namespace}.`}.yaml`.length;
/** Argo CD evaluates `{{ … }}` in an ApplicationSet template (goTemplate: true). */
const TEMPLATE = /\{\{|\}\}/;
/** a member's credentials on the leader (member-credentials.ts), by key and kind */
const LEADER_CREDENTIALS = [
  ['serviceAccount', 'ServiceAccount'],
  ['secret', 'Secret'],
  ['roleBinding', 'RoleBinding'],
] as const;

/**
 * Every name the bundles and delivery objects carry that no other rule checks: what `validate`
 * accepts must be what an API server, a file system and Argo CD's templating accept.
 */
export const objectNameFormat: ModelRule = {
  id: 'object-name-format',
  severity: 'error',
  description: 'a name, key or duration the compiler emits is not valid where it ends up',
  validate({ definition, clusters, report }) {
    const leaderNamespace = definition.spec.leader.namespace;
    const formats = formatChecks(report);
    const { subdomain, plain, duration, secretKey } = formats;
    const checkSetting = (s: EngineSetting) => formats[s.format](s.what, s.value, s.path);

    for (const c of clusters) {
      c.cluster.gateways.forEach((g, i) => subdomain('Gateway Node', g.node, [...c.path, 'gateways', i, 'node'], fileNameMax('Node')));
      const t = c.cluster.tokenSecret;
      const tp = [...c.path, 'tokenSecret'];
      // the member's ExternalSecret or SealedSecret carries the name (a manual token: no object)
      const source = t.source === 'externalSecret' ? 'ExternalSecret' : t.source === 'sealedSecret' ? 'SealedSecret' : undefined;
      if (t.name !== undefined) subdomain('token Secret name', t.name, [...tp, 'name'], source ? fileNameMax(source, c.cluster.namespace) : undefined);
      for (const [key, kind] of LEADER_CREDENTIALS) {
        const value = c.cluster.leaderCredentials?.[key];
        if (value !== undefined) subdomain(`leader-side ${key}`, value, [...c.path, 'leaderCredentials', key], fileNameMax(kind, leaderNamespace));
      }
      if (t.source === 'externalSecret') {
        const e = t.externalSecret;
        subdomain('secret store name', e.secretStoreRef.name, [...tp, 'externalSecret', 'secretStoreRef', 'name']);
        for (const key of ['caProperty', 'tokenProperty'] as const) secretKey('remote property', e.remoteRef[key], [...tp, 'externalSecret', 'remoteRef', key]);
        plain('remote key', e.remoteRef.key, [...tp, 'externalSecret', 'remoteRef', 'key']);
        duration('refresh interval', e.refreshInterval, [...tp, 'externalSecret', 'refreshInterval']);
      }
      // every engine's, named or not: a cluster's delivery settings reach its objects once the engine is
      for (const e of ALL_ENGINES) for (const setting of e.rules.clusterSettings(c)) checkSetting(setting);
    }

    const registry = definition.spec.antrea.imageRegistry;
    if (!IMAGE_PREFIX.test(registry))
      report({
        path: ['spec', 'antrea', 'imageRegistry'],
        message: `image registry "${shown(registry)}" is not an image repository prefix`,
        hint: 'write a registry host and path such as "registry.example.com/antrea": lowercase path components of letters, digits, ".", "_" and "-"',
      });
    definition.spec.tiers.forEach((t, i) => subdomain('Tier name', t.name, ['spec', 'tiers', i, 'name'], fileNameMax('Tier')));

    definition.spec.policies.forEach((p, i) => {
      if (p.exportName !== undefined)
        subdomain('ResourceExport name', p.exportName, ['spec', 'policies', i, 'exportName'], fileNameMax('ResourceExport', leaderNamespace));
    });

    for (const e of ALL_ENGINES) for (const setting of e.rules.settings(definition)) checkSetting(setting);
  },
};

/** A check per format a name, key or value must have where it ends up; each reports what is wrong and how to write it. */
function formatChecks(report: (report: Report) => void) {
  const subdomain = (what: string, value: string, path: DataPath, max = 253) => {
    max = Math.min(max, 253);
    if (isDns1123Subdomain(value) && value.length <= max) return;
    report({
      path,
      message: `${what} "${shown(value)}" is not a valid Kubernetes name${value.length > max ? `: it is ${value.length} characters long (at most ${max})` : ''}`,
      hint: max < 253 ? `${SUBDOMAIN_HINT.replace('253', String(max))} (the bundle names a file after it)` : SUBDOMAIN_HINT,
    });
  };
  const label = (what: string, value: string, path: DataPath) => {
    const problem = labelProblem(value);
    if (problem) report({ path, message: `${what} "${shown(value)}" is not a valid Namespace name: ${problem}`, hint: LABEL_HINT });
  };
  const duration = (what: string, value: string, path: DataPath) => {
    if (!DURATION.test(value))
      report({ path, message: `${what} "${shown(value)}" is not a duration`, hint: 'write a positive Go duration such as "10m", "1h" or "1h30m"' });
  };
  const plain = (what: string, value: string, path: DataPath) => {
    const unprintable = firstUnprintable(value);
    if (TEMPLATE.test(value))
      report({
        path,
        message: `${what} "${shown(value)}" contains "{{" or "}}", which Argo CD would evaluate as a template`,
        hint: 'write the literal value; templates are not supported here',
      });
    else if (unprintable)
      report({
        path,
        message: `${what} "${shown(value)}" holds ${unprintable}, a control, format or invisible character`,
        hint: 'remove it: such characters make a value read other than it is, and no Kubernetes client or engine needs them',
      });
  };
  const url = (what: string, value: string, path: DataPath) => {
    if (!URL_TEXT.test(value) || TEMPLATE.test(value))
      report({
        path,
        message: `${what} "${shown(value)}" is not a URL: it holds characters a URL never carries unencoded`,
        hint: 'write the URL as the engine has it, percent-encoding anything outside RFC 3986 (no spaces, quotes, control or non-ASCII characters)',
      });
  };
  const secretKey = (what: string, value: string, path: DataPath) => {
    if (!SECRET_KEY.test(value) || value.length > 253)
      report({ path, message: `${what} "${shown(value)}" cannot be a Secret key`, hint: 'use letters, digits, "-", "_" and "." (at most 253 characters)' });
  };

  return { label, subdomain, plain, url, duration, secretKey };
}

/** Values are quoted in messages, shortened; unprintable characters are shown escaped, never printed. */
const shown = (s: string) => printable(s.length > 80 ? `${s.slice(0, 77)}...` : s).replace(/"/g, '\\"');
