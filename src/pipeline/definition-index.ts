import { createHash } from 'node:crypto';
import { extname } from 'node:path';
import { COMPILER } from '../compiler-version';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { DIAGNOSTIC_CODES } from '../diagnostics/codes';
import { canBuildDelivery, deliveryDestinations } from '../delivery/registry';
import { effectiveClusters } from '../model/effective';
import type { ParsedClusterSet } from '../model/parse-clusterset';
import { dashPrefixed } from '../validate/rules/delivery-name-collision';
import type { DefinitionRecord, Manifest, ManifestEntry } from '../output/manifest';
import type { ValidatedRevision } from './pipeline';

export { MANIFEST, sourcePath } from '../output/manifest';

/*
 * The index of definitions kept in manifest.json (issue #54): for each definition a synth found
 * without any diagnostic, the hash of its text and the facts the rules across definitions read
 * (cluster-in-two-definitions, delivery-name-across-definitions, one ClusterSet name per file). A
 * pull-request check reads every definition's text, hashes it, and parses only those whose hash
 * the index does not hold (the changed ones) and those whose facts meet another definition's: a
 * definition of the index gives no diagnostic of its own (it gave none with this compiler and the
 * same text), and the rules across definitions report only between definitions that share a key,
 * a name or a dash-prefixed name, so leaving out the others changes no report. A file whose hash
 * differs from the index is parsed: the index never stands in for text it does not match.
 */

/** What the rules across definitions read of one definition. */
export interface FleetFacts {
  readonly name: string;
  readonly delivered: boolean;
  readonly identities: readonly string[];
  readonly clusterIDs: readonly string[];
}

export const textHash = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 32);

/** The facts of a parsed definition, as the fleet rules compute them. */
export function fleetFacts(parsed: ParsedClusterSet): FleetFacts {
  const { definition } = parsed;
  const clusters = effectiveClusters(definition);
  return {
    name: definition.metadata.name,
    delivered: canBuildDelivery(definition, clusters),
    identities: clusters.flatMap((c) => [`id\0${c.clusterID}`, ...deliveryDestinations(definition, c).map((d) => d.key)]),
    clusterIDs: clusters.map((c) => c.clusterID),
  };
}

/**
 * The record of a definition for the index, with the warnings it gives on its own (`own`: the
 * revision's diagnostics of one definition, pipeline.ts); none for TypeScript (its imports are not
 * in its text), and none when one of them is an error, names another file, or names the file in
 * its text (the index replays it for a file of the same text, wherever it lies).
 */
export function definitionRecord(parsed: ParsedClusterSet, own: readonly Diagnostic[] = []): DefinitionRecord | undefined {
  const { file, text } = parsed.source;
  if (!text || ['.ts', '.mts', '.cts'].includes(extname(file))) return undefined;
  const mine = own.filter((d) => d.file === file);
  if (!mine.every((d) => replayable(d, file))) return undefined;
  const { delivered, identities } = fleetFacts(parsed);
  return { sha256: textHash(text), delivered, identities, ...(mine.length > 0 && { warnings: mine.map((d) => renamed(d, '')) }) };
}

/** A warning the index can give again: about its own file only, which its text does not name. */
function replayable(d: Diagnostic, file: string): boolean {
  const texts = [d.message, d.hint ?? '', ...(d.related ?? []).map((r) => r.message)];
  return d.severity === 'warning' && (d.related ?? []).every((r) => r.file === file) && !texts.some((t) => t.includes(file));
}

/** The diagnostic with its file (and its related locations') named `file`, its keys in their order (json output is byte-identical). */
const renamed = (d: Diagnostic, file: string): Diagnostic => ({ ...d, file, ...(d.related && { related: d.related.map((r) => ({ ...r, file })) }) });

/** A definition's recorded warnings, given again for `file`. */
export const replayWarnings = (record: DefinitionRecord, file: string): Diagnostic[] => (record.warnings ?? []).map((d) => renamed(d, file));

/** The definitions manifest.json indexes, by source path; empty when another compiler wrote it. */
export class DefinitionIndex {
  private readonly bySource = new Map<string, { name: string; entry: ManifestEntry; record: DefinitionRecord }>();

  constructor(manifest: Partial<Manifest> | undefined) {
    // manifest.json is untrusted: its map and entries are unknown until checked
    const sets: unknown = manifest?.clusterSets;
    if (manifest?.compiler !== COMPILER || typeof sets !== 'object' || sets === null) return;
    for (const [name, entry] of Object.entries(sets as Record<string, ManifestEntry | null>)) {
      const record = entry?.definition;
      if (!entry || !record || typeof entry.source !== 'string' || !validRecord(record, entry)) continue;
      this.bySource.set(entry.source, { name, entry, record });
    }
  }

  get size(): number {
    return this.bySource.size;
  }

  /** The facts of the definition at `source` (relative, as manifest.json names it) when the index holds this text. */
  lookup(source: string, text: string): (FleetFacts & { readonly entry: ManifestEntry; readonly record: DefinitionRecord }) | undefined {
    const found = this.bySource.get(source);
    if (!found || found.record.sha256 !== textHash(text)) return undefined;
    const { name, entry, record } = found;
    return { name, entry, record, delivered: record.delivered, identities: record.identities, clusterIDs: entry.clusters.map((c) => c.clusterID) };
  }

  /** Drops an entry (its output did not verify): its definition is compiled. */
  forget(source: string): void {
    this.bySource.delete(source);
  }

  entries(): IterableIterator<[string, { name: string; entry: ManifestEntry }]> {
    return this.bySource.entries();
  }
}

/** manifest.json is untrusted: a record of the wrong shape is no record. */
function validRecord(record: DefinitionRecord, entry: ManifestEntry): boolean {
  const strings = (v: unknown) => Array.isArray(v) && v.every((s) => typeof s === 'string');
  return (
    typeof record.sha256 === 'string' &&
    typeof record.delivered === 'boolean' &&
    strings(record.identities) &&
    (record.warnings === undefined || (Array.isArray(record.warnings) && record.warnings.every(validWarning))) &&
    Array.isArray(entry.clusters) &&
    entry.clusters.every((c: unknown) => typeof (c as { clusterID?: unknown } | null)?.clusterID === 'string')
  );
}

/** A recorded warning (manifest.json is untrusted) renders as the diagnostic it was: a known code, each field of its type. */
function validWarning(value: unknown): boolean {
  const d = value as Record<string, unknown> | null;
  const int = (v: unknown) => Number.isInteger(v);
  const optional = (v: unknown, ok: (v: unknown) => boolean) => v === undefined || ok(v);
  const place = (l: Record<string, unknown> | null): l is Record<string, unknown> =>
    typeof l === 'object' &&
    l !== null &&
    l.file === '' &&
    typeof l.message === 'string' &&
    int(l.line) &&
    int(l.column) &&
    optional(l.endLine, int) &&
    optional(l.endColumn, int) &&
    Array.isArray(l.path) &&
    l.path.every((p) => typeof p === 'string' || int(p));
  return (
    place(d) &&
    d.severity === 'warning' &&
    (DIAGNOSTIC_CODES as readonly unknown[]).includes(d.code) &&
    optional(d.hint, (h) => typeof h === 'string') &&
    optional(d.related, (r) => Array.isArray(r) && r.every(place))
  );
}

/**
 * The definitions (by position) whose facts meet another's: a shared identity, a name held twice,
 * or (delivered) a name or `<cs>-<id>` that is another's or a dash-prefix of it. The rules across
 * definitions report only among these.
 */
export function involved(facts: readonly FleetFacts[]): Set<number> {
  const out = new Set<number>();
  const owners = new Map<string, Set<number>>();
  const own = (key: string, at: number) => {
    let set = owners.get(key);
    if (!set) owners.set(key, (set = new Set()));
    set.add(at);
  };
  const keys: { key: string; at: number }[] = [];
  facts.forEach((f, at) => {
    own(`name\0${f.name}`, at);
    for (const id of f.identities) own(`identity\0${id}`, at);
    if (!f.delivered) return;
    for (const id of f.clusterIDs) keys.push({ key: `${f.name}-${id}`, at });
  });
  for (const set of owners.values()) if (set.size > 1) for (const at of set) out.add(at);
  // delivery names: one `<cs>-<id>` twice (also inside one definition), or dash-prefixed
  const seen = new Map<string, number>();
  const twice = new Set<string>();
  for (const { key, at } of keys) {
    if (seen.has(key)) twice.add(key);
    seen.set(key, at);
  }
  const candidates = dashPrefixed(seen.keys());
  for (const { key, at } of keys) if (candidates.has(key) || twice.has(key)) out.add(at);
  const setCandidates = dashPrefixed(facts.filter((f) => f.delivered).map((f) => f.name));
  facts.forEach((f, at) => {
    if (f.delivered && setCandidates.has(f.name)) out.add(at);
  });
  return out;
}

/** Each definition's record for the index, by file (none for TypeScript). */
export function definitionRecords(revision: Pick<ValidatedRevision, 'parsed' | 'own'> | undefined): Map<string, DefinitionRecord> {
  const out = new Map<string, DefinitionRecord>();
  for (const p of revision?.parsed ?? []) {
    const record = definitionRecord(p, revision!.own);
    if (record) out.set(p.source.file, record);
  }
  return out;
}

/**
 * The entries with the definition records of files no diagnostic names but their own recorded
 * warnings (`own`): a file a rule across definitions or the output's checks name is parsed every time.
 */
export function withoutMentioned(
  entries: Readonly<Record<string, ManifestEntry>>,
  files: ReadonlyMap<string, string>,
  diagnostics: readonly Diagnostic[],
  own: readonly Diagnostic[] = [],
): Record<string, ManifestEntry> {
  const recorded = new Set(own);
  const named = new Set(diagnostics.filter((d) => !recorded.has(d)).flatMap((d) => [d.file, ...(d.related ?? []).map((r) => r.file)]));
  return Object.fromEntries(
    Object.entries(entries).map(([name, entry]) => {
      const file = files.get(name);
      if (!entry.definition || file === undefined || !named.has(file)) return [name, entry];
      const rest: { -readonly [K in keyof ManifestEntry]: ManifestEntry[K] } = { ...entry };
      delete rest.definition;
      return [name, rest];
    }),
  );
}
