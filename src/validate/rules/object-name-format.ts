import type { DataPath } from '../../diagnostics/diagnostic';
import { isDns1123Subdomain } from '../kube-names';
import { LABEL_HINT, labelProblem } from '../rfc1123';
import type { ModelRule } from '../rule';

const SUBDOMAIN_HINT = 'use lowercase letters, digits, "-" and ".", start and end each part with a letter or digit, at most 253 characters';
/** A Secret data key (k8s.io/apimachinery IsConfigMapKey). */
const SECRET_KEY = /^[-._a-zA-Z0-9]+$/;
/** A Go duration as Flux and External Secrets parse it (time.ParseDuration), not negative. */
const DURATION = /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/;
/** Bundles name a Node's file `Node.<name>.yaml`; a file name has at most 255 bytes. */
const NODE_NAME_MAX = 255 - 'Node..yaml'.length;
/** Argo CD evaluates `{{ … }}` in an ApplicationSet template (goTemplate: true). */
const TEMPLATE = /\{\{|\}\}/;

const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Every name the bundles and delivery objects carry that no other rule checks: what `validate`
 * accepts must be what an API server, a file system and Argo CD's templating accept.
 */
export const objectNameFormat: ModelRule = {
  id: 'object-name-format',
  severity: 'error',
  description: 'a name, key or duration the compiler emits is not valid where it ends up',
  check({ definition, clusters, report }) {
    const subdomain = (what: string, value: string, path: DataPath, max = 253) => {
      if (isDns1123Subdomain(value) && value.length <= max) return;
      report({
        path,
        message: `${what} "${printable(value)}" is not a valid Kubernetes name${value.length > max ? `: it is ${value.length} characters long (at most ${max})` : ''}`,
        hint: max < 253 ? `${SUBDOMAIN_HINT.replace('253', String(max))} (the bundle names a file after it)` : SUBDOMAIN_HINT,
      });
    };
    const label = (what: string, value: string, path: DataPath) => {
      const problem = labelProblem(value);
      if (problem) report({ path, message: `${what} "${printable(value)}" is not a valid Namespace name: ${problem}`, hint: LABEL_HINT });
    };
    const duration = (what: string, value: string, path: DataPath) => {
      if (!DURATION.test(value))
        report({ path, message: `${what} "${printable(value)}" is not a duration`, hint: 'write a positive Go duration such as "10m", "1h" or "1h30m"' });
    };
    const plain = (what: string, value: string, path: DataPath) => {
      if (TEMPLATE.test(value))
        report({
          path,
          message: `${what} "${printable(value)}" contains "{{" or "}}", which Argo CD would evaluate as a template`,
          hint: 'write the literal value; templates are not supported here',
        });
      else if (CONTROL.test(value)) report({ path, message: `${what} contains control characters`, hint: 'remove the control characters' });
    };

    for (const c of clusters) {
      c.cluster.gateways.forEach((g, i) => subdomain('Gateway Node', g.node, [...c.path, 'gateways', i, 'node'], NODE_NAME_MAX));
      const t = c.cluster.tokenSecret;
      const tp = [...c.path, 'tokenSecret'];
      if (t.name !== undefined) subdomain('token Secret name', t.name, [...tp, 'name']);
      for (const [key, value] of Object.entries(c.cluster.leaderCredentials ?? {}))
        if (value !== undefined) subdomain(`leader-side ${key}`, value, [...c.path, 'leaderCredentials', key]);
      if (t.source === 'externalSecret') {
        const e = t.externalSecret;
        subdomain('secret store name', e.secretStoreRef.name, [...tp, 'externalSecret', 'secretStoreRef', 'name']);
        for (const key of ['caProperty', 'tokenProperty'] as const) {
          const value = e.remoteRef[key];
          if (!SECRET_KEY.test(value) || value.length > 253)
            report({
              path: [...tp, 'externalSecret', 'remoteRef', key],
              message: `remote property "${printable(value)}" cannot be a Secret key`,
              hint: 'use letters, digits, "-", "_" and "." (at most 253 characters)',
            });
        }
        plain('remote key', e.remoteRef.key, [...tp, 'externalSecret', 'remoteRef', 'key']);
        duration('refresh interval', e.refreshInterval, [...tp, 'externalSecret', 'refreshInterval']);
      }
    }

    definition.spec.policies.forEach((p, i) => {
      if (p.exportName !== undefined) subdomain('ResourceExport name', p.exportName, ['spec', 'policies', i, 'exportName']);
    });

    const { argocd, flux } = definition.spec.delivery;
    const dp: DataPath = ['spec', 'delivery'];
    if (argocd) {
      label('Argo CD Namespace', argocd.namespace, [...dp, 'argocd', 'namespace']);
      subdomain('Argo CD project', argocd.project, [...dp, 'argocd', 'project']);
      plain('repoURL', argocd.repoURL, [...dp, 'argocd', 'repoURL']);
      plain('targetRevision', argocd.targetRevision, [...dp, 'argocd', 'targetRevision']);
      plain('path', argocd.path, [...dp, 'argocd', 'path']);
    }
    if (flux) {
      label('Flux Namespace', flux.namespace, [...dp, 'flux', 'namespace']);
      duration('Flux interval', flux.interval, [...dp, 'flux', 'interval']);
      subdomain('Flux source name', flux.sourceRef.name, [...dp, 'flux', 'sourceRef', 'name']);
      if (flux.sourceRef.namespace !== undefined) label('Flux source Namespace', flux.sourceRef.namespace, [...dp, 'flux', 'sourceRef', 'namespace']);
      plain('path', flux.path, [...dp, 'flux', 'path']);
    }
  },
};

/** Values are quoted in messages; control characters are shown escaped, never printed. */
const printable = (s: string) => JSON.stringify(s.length > 80 ? `${s.slice(0, 77)}...` : s).slice(1, -1);
