// Issue #37 item 3: every value in every command we print or write is quoted for its shell. The
// README's and the checklist's commands run in real shells with stub binaries that record their
// argv; a definition whose values are plain words gives the intended calls, and its twin whose
// values carry shell syntax must give the same calls with those values in place, unchanged.
import { describe, expect, it } from 'vitest';
import { releaseFor } from '../../src/antrea/releases';
import { ClusterSetSchema, type ClusterSet } from '../../src/model/clusterset';
import { effectiveClusters } from '../../src/model/effective';
import { planChecklist } from '../../src/plan/checklist';
import { clusterSetNotes } from '../../src/synth/notes';
import { dissolveProcedure } from '../../src/validate/transitions/dissolve-steps';
import { LATEST, perMemberCredentialsMove } from '../helpers/releases';
import { soakRows } from '../helpers/soak';
import { runWithStubs, shellBlocks, SHELLS, type StubCall } from '../helpers/stub-binaries';

/**
 * What a value may carry: quotes, command substitution (which would leave a file `c` or `d` in
 * the working directory), globs, comments, variables, a backslash, a newline. Short, so that the
 * engine names built from two values stay under 63 characters and are not hashed.
 */
const PAYLOADS = [`'$(>c)"`, '`>d`;*', '\\ $HOME#', "a\nb'x", '&|<y!~'];

/** A value per key: the benign twin's plain word, or that word with a payload after it. */
type Values = (key: string) => string;
const plain: Values = (key) => `${key}v`;
const withPayloads =
  (payloads: readonly string[]): Values =>
  (key) =>
    `${key}v${payloads[Number(key.slice(1)) % payloads.length]!}`;
const hostile = withPayloads(PAYLOADS);
/** Markdown has no newline inside a code span: the README's inline commands get values without one (validate refuses it in names). */
const hostileInline = withPayloads(PAYLOADS.filter((p) => !p.includes('\n')));
const KEYS = Array.from({ length: 40 }, (_, i) => `k${String(i).padStart(2, '0')}`);

type Variant = 'argocd' | 'flux-hub' | 'flux-own' | 'manual';

/** A definition whose every free value comes from `v`, for a delivery variant. */
function definition(
  v: Values,
  variant: Variant,
  extra: { readonly leaving?: boolean; readonly version?: string; readonly upgradeFrom?: string } = {},
): ClusterSet {
  const hub = variant === 'flux-hub';
  const flux = variant === 'flux-hub' || variant === 'flux-own';
  return ClusterSetSchema.parse({
    apiVersion: 'antrea-clusterset/v1alpha1',
    kind: 'ClusterSetDefinition',
    metadata: { name: v('k01') },
    spec: {
      antrea: { version: extra.version ?? LATEST, ...(extra.upgradeFrom && { upgradeFrom: extra.upgradeFrom }) },
      leader: { clusterID: v('k02'), namespace: v('k03'), server: 'https://leader.example.com:6443' },
      clusters: [
        { clusterID: v('k02'), member: false, ...(variant === 'argocd' && { delivery: { argocd: { name: v('k04') } } }) },
        {
          clusterID: v('k05'),
          namespace: v('k06'),
          install: 'multiclusterOnly',
          gateways: [{ node: v('k07'), ip: '10.0.0.1' }],
          tokenSecret: { source: 'manual', name: v('k08') },
          leaderCredentials: { secret: v('k09') },
          delivery: {
            ...(variant === 'argocd' && { argocd: { server: 'https://east.example.com' } }),
            ...(hub && { flux: { kubeConfigSecretRef: { name: v('k10'), key: v('k11') } } }),
          },
        },
        {
          clusterID: v('k12'),
          gateways: [{ node: v('k13') }],
          tokenSecret: {
            source: 'externalSecret',
            name: v('k14'),
            externalSecret: { secretStoreRef: { name: v('k15') }, remoteRef: { key: v('k16'), caProperty: v('k17'), tokenProperty: v('k18') } },
          },
          delivery: { ...(variant === 'argocd' && { argocd: { name: v('k19') } }), ...(hub && { flux: { kubeConfigSecretRef: { name: v('k20') } } }) },
        },
        ...(extra.leaving
          ? []
          : [
              {
                clusterID: v('k21'),
                namespace: v('k22'),
                gateways: [{ node: v('k23') }],
                tokenSecret: { source: 'sealedSecret', name: v('k24'), sealedSecret: { encryptedData: { 'ca.crt': 'AgA', token: 'AgB' } } },
                delivery: { ...(variant === 'argocd' && { argocd: { name: v('k25') } }), ...(hub && { flux: { kubeConfigSecretRef: { name: v('k26') } } }) },
              },
            ]),
      ],
      services: [{ name: v('k27'), namespace: v('k28'), exportFrom: [v('k21'), v('k12')] }],
      tiers: [{ name: v('k29'), priority: 10 }],
      policies: [{ name: v('k30'), spec: { priority: 1, tier: v('k29'), appliedTo: [{ namespaceSelector: {} }] } }],
      delivery: {
        ...(variant === 'argocd' && { argocd: { namespace: v('k31'), project: v('k32'), repoURL: v('k33'), targetRevision: v('k34'), path: v('k35') } }),
        ...(flux && {
          flux: { sourceRef: { kind: 'GitRepository', name: v('k36'), namespace: v('k37') }, namespace: v('k38'), interval: v('k39'), path: v('k00') },
        }),
      },
    },
  });
}

const VARIANTS: readonly Variant[] = ['argocd', 'flux-hub', 'flux-own', 'manual'];
const NEXT_ENGINE: Readonly<Record<Variant, Variant>> = { argocd: 'flux-hub', 'flux-hub': 'flux-own', 'flux-own': 'argocd', manual: 'argocd' };

/** The code spans of Markdown prose that are whole commands (no `<placeholder>` to fill in). */
function inlineCommands(markdown: string): string[] {
  const prose = markdown.replace(/^( *)(`{3,})sh\n[\s\S]*?^\1\2$/gm, '');
  return [...prose.matchAll(/(?<!`)(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g)]
    .map((m) => (/^ .* $/s.test(m[2]!) ? m[2]!.slice(1, -1) : m[2]!))
    .filter((s) => /^(kubectl|flux|argocd|helm|jq|kubeseal) /.test(s) && !/<[A-Za-z][\w .-]*>/.test(s));
}

/** The README's `sh` blocks, one script each, and its inline commands. */
function readmeScripts(v: Values, variant: Variant, inline: boolean): string[] {
  const d = definition(v, variant);
  const readme = clusterSetNotes(d, effectiveClusters(d), releaseFor(d.spec.antrea.version)!);
  return inline ? inlineCommands(readme) : shellBlocks(readme);
}

/** The checklist's commands when the ClusterSet is new to the plan's base, when a member leaves and when Antrea is upgraded. */
function checklistScripts(v: Values, variant: Variant): string[] {
  const d = definition(v, variant);
  const { from, to } = perMemberCredentialsMove();
  const pairs: [ClusterSet, ClusterSet][] = [
    // members join (every cluster but the leader is new), a member leaves, Antrea is upgraded
    [{ ...d, spec: { ...d.spec, clusters: d.spec.clusters.slice(0, 1), services: [] } }, d],
    [d, definition(v, variant, { leaving: true })],
    [definition(v, variant, { version: from }), definition(v, variant, { version: to, upgradeFrom: from })],
    // the delivery engine changes: the old one's objects are removed (#37 item 6)
    [d, definition(v, NEXT_ENGINE[variant])],
  ];
  const at = (x: ClusterSet) => new Map([[x.metadata.name, { definition: x }]]);
  return pairs.flatMap(([base, head]) => planChecklist(at(base), at(head)).map((item) => (item.commands ?? []).join('\n'))).filter((s) => s !== '');
}

/** The commands of the procedure a refused change (a rename, a leader move) prints. */
function procedureScripts(v: Values, variant: Variant): string[] {
  const d = definition(v, variant);
  return dissolveProcedure({ definition: d, clusters: effectiveClusters(d) }, 'the new definition', { leaderMoves: true })
    .map((s) => s.command)
    .filter((c): c is string => c !== undefined);
}

const ENV = { ARGOCD_CONTEXT: 'argocd-ctx', FLUX_CONTEXT: 'flux-ctx' };

/** The benign calls with each plain value replaced by its hostile twin: what the hostile commands must do. */
function intended(calls: readonly StubCall[], twin: Values): StubCall[] {
  const swap = (arg: string) => KEYS.reduce((a, k) => a.split(plain(k)).join(twin(k)), arg);
  return calls.map((c) => ({ program: c.program, args: c.args.map(swap) })).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
}

/** Where printed commands come from, and the hostile values each gets. */
const SOURCES = {
  'README blocks': { scripts: (v: Values, variant: Variant) => readmeScripts(v, variant, false), twin: hostile },
  'README inline commands': { scripts: (v: Values, variant: Variant) => readmeScripts(v, variant, true), twin: hostileInline },
  checklist: { scripts: checklistScripts, twin: hostile },
  'refused-change procedure': { scripts: procedureScripts, twin: hostile },
} as const;
const CASES = VARIANTS.flatMap((variant) => (Object.keys(SOURCES) as (keyof typeof SOURCES)[]).map((what) => [what, variant] as const));

/**
 * npm test runs each case in one shell, a Latin square over the shells (every source and every
 * variant meets every shell); the soak tier (test/helpers/soak.ts) runs every case in every shell.
 */
const SOURCE_COUNT = Object.keys(SOURCES).length;
const casesIn = (shellIndex: number) => soakRows(CASES, (_, i) => (i + Math.floor(i / SOURCE_COUNT)) % SHELLS.length === shellIndex);

describe.each(SHELLS.map((shell, index) => ({ name: shell.name, shell, index })))('printed commands in $name', ({ shell, index: shellIndex }) => {
  it.each(casesIn(shellIndex))('%s (%s): hostile values reach argv unchanged, in the places of plain ones', (what, variant) => {
    const { scripts, twin } = SOURCES[what];
    const benign = scripts(plain, variant);
    const attack = scripts(twin, variant);
    expect(attack.length).toBe(benign.length);
    // one shell per side: the calls are compared as a whole (a pipeline's members run in no order anyway)
    const expected = runWithStubs(benign.join('\n'), shell, ENV);
    const got = runWithStubs(attack.join('\n'), shell, ENV);
    expect(got.leftFiles.filter((f) => f === 'c' || f === 'd')).toEqual([]);
    expect(got.calls, attack.join('\n')).toEqual(intended(expected.calls, twin));
    // the scripts call the stubs: the comparison is not of two empty lists
    expect(got.calls.length).toBeGreaterThan(0);
  });
});
