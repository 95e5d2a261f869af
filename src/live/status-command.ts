import { printable, printableJson } from '../diagnostics/printable';
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DUMP_LIMITS } from './read-dump';
import { validateDefinitions } from '../pipeline/pipeline';
import { hasErrors, type Diagnostic } from '../diagnostics/diagnostic';
import { errnoCode } from '../diagnostics/file-system';
import { diagnosticStyle } from '../diagnostics/diagnostic-style';
import { render } from '../diagnostics/render';
import { readSourceFile } from '../load/definition-folder';
import { findDefinitionsDir } from '../load/find-definitions-dir';
import { findDefinitionFiles } from '../load/load-clustersets';
import type { ClusterSet } from '../model/clusterset';
import { verificationsOf, type VerificationId } from '../verify/verifications';
import { LIVE_KINDS, LiveObjectsError, parseLiveObjects, type LiveObjects } from '../verify/live-objects';

/** A mistake on the command line; the CLI prints it with the usage hint. */
export class StatusUsageError extends Error {}

interface Stream {
  write(s: string): unknown;
  readonly isTTY?: boolean;
}

export interface StatusOptions {
  readonly paths: readonly string[];
  /** a folder of saved `kubectl get -o yaml` output, `<clusterID>.yaml` per cluster */
  readonly from?: string;
  /** `clusterID=context,...`: the kubectl context of each cluster (default: the cluster ID) */
  readonly contexts?: string;
  readonly format?: string;
}

export interface VerificationResult {
  readonly check: VerificationId;
  readonly subject: string;
  readonly ok: boolean;
  readonly message: string;
  /** a failing check's: where to look */
  readonly hint?: string;
}

export interface StatusReport {
  readonly clusterSets: { name: string; clusters: { clusterID: string; checks: VerificationResult[] }[] }[];
  readonly healthy: boolean;
}

/**
 * `clusterset status`: the verification's checks (`verifications.ts`) from outside, over each cluster's
 * live objects, read with `kubectl get` (read-only, one context per cluster) or from saved
 * output. One line per cluster and check; exit 0 when every check passes, 1 otherwise, 2 for a
 * usage mistake.
 */
export async function statusCommand(
  options: StatusOptions,
  io: { stdout: Stream; stderr: Stream },
  env: Readonly<Record<string, string | undefined>>,
): Promise<number> {
  const format = options.format ?? 'text';
  if (format !== 'text' && format !== 'json') throw new StatusUsageError(`--format must be text or json, not "${format}"`);
  if (options.from !== undefined && options.contexts !== undefined) throw new StatusUsageError('--from and --contexts exclude each other');
  const contexts = parseContexts(options.contexts);
  const diagnostics: Diagnostic[] = [];
  const files = findDefinitionFiles(options.paths.length > 0 ? options.paths : [findDefinitionsDir(process.cwd())], diagnostics);
  const result = files.length > 0 ? await validateDefinitions(files) : undefined;
  diagnostics.push(...(result?.diagnostics ?? []));
  if (hasErrors(diagnostics) || !result) {
    const { color } = diagnosticStyle('text', io.stderr, env);
    io.stderr.write(render('text', diagnostics, new Map(result?.sources.map((s) => [s.file, s.text]) ?? []), { files: files.length, color }));
    return 1;
  }
  const unmapped: string[] = [];
  const read: ReadCluster =
    options.from !== undefined
      ? savedObjects(options.from)
      : async (clusterID) => {
          const objects = await liveObjects(contexts)(clusterID);
          if ('error' in objects && NO_SUCH_CONTEXT.test(objects.error)) unmapped.push(clusterID);
          return objects;
        };
  let definitions = result.parsed.map((p) => p.definition);
  // saved objects without named definitions: the ClusterSets of the clusters the folder holds
  if (options.from !== undefined && options.paths.length === 0) {
    const saved = savedClusterIDs(options.from);
    definitions = definitions.filter((d) => d.spec.clusters.some((c) => saved.has(c.clusterID)));
    if (definitions.length === 0)
      throw new StatusUsageError(
        `${options.from} holds no saved objects of a cluster of the definitions (<clusterID>.yaml): name the definitions to check, or save their clusters' objects there`,
      );
  }
  const report = await statusReport(definitions, read);
  io.stdout.write(format === 'json' ? `${printableJson(JSON.stringify(report, null, 2))}\n` : renderStatus(report));
  if (unmapped.length > 0)
    io.stderr.write(
      `hint: your kubeconfig has no context for ${unmapped.map(printable).join(', ')}: name each cluster's context with --contexts ID=CONTEXT,..., ` +
        `or give each cluster a context named after its ID (the ClusterSet's README, "Tools and kubeconfig contexts")\n`,
    );
  return report.healthy ? 0 : 1;
}

/** Objects of one cluster, or why they could not be read. */
export type ReadCluster = (clusterID: string) => Promise<LiveObjects | { error: string }>;

async function statusReport(definitions: readonly ClusterSet[], readCluster: ReadCluster): Promise<StatusReport> {
  const cache = new Map<string, Promise<LiveObjects | { error: string }>>();
  const clusterSets = [];
  for (const definition of definitions) {
    const checks = verificationsOf(definition);
    const clusters: StatusReport['clusterSets'][number]['clusters'] = [];
    const ids = [...new Set(checks.map((c) => c.clusterID))];
    // every cluster first: a check across clusters (evaluateFleet) reads the others' objects
    const read = new Map<string, LiveObjects | { error: string }>();
    for (const clusterID of ids) {
      if (!cache.has(clusterID)) cache.set(clusterID, readCluster(clusterID));
      read.set(clusterID, await cache.get(clusterID)!);
    }
    const objectsOf = (id: string) => {
      const o = read.get(id);
      return o === undefined || 'error' in o ? undefined : o;
    };
    for (const clusterID of ids) {
      const objects = read.get(clusterID)!;
      clusters.push({
        clusterID,
        checks: checks
          .filter((c) => c.clusterID === clusterID)
          .flatMap(({ check, subject, evaluate, evaluateFleet, hint }) => {
            if (!evaluate && !evaluateFleet) return [];
            // objects that could not be read: the reason is the message, and a check's hint (tokens, Gateways) does not apply
            if ('error' in objects) return [{ check, subject, ok: false, message: objects.error }];
            const verdict = evaluate ? evaluate(objects) : evaluateFleet!(objectsOf);
            return [{ check, subject, ...verdict, ...(!verdict.ok && { hint }) }];
          }),
      });
    }
    clusterSets.push({ name: definition.metadata.name, clusters });
  }
  return { clusterSets, healthy: clusterSets.every((s) => s.clusters.every((c) => c.checks.every((k) => k.ok))) };
}

/** `<clusterset>  <clusterID>  <check>  <subject>  ok|FAIL  <what>`, columns aligned; a failure's hint on the line below. */
function renderStatus(report: StatusReport): string {
  // a message may quote a live object's condition: every cell shows on one line, escaped (printable.ts)
  const rows = report.clusterSets.flatMap((s) =>
    s.clusters.flatMap((c) => c.checks.map((k) => [s.name, c.clusterID, k.check, k.subject, k.ok ? 'ok' : 'FAIL', k.message, k.hint ?? ''].map(printable))),
  );
  const widths = [0, 1, 2, 3, 4].map((i) => Math.max(...rows.map((r) => r[i]!.length)));
  const lines = rows.map(
    (r) =>
      r
        .slice(0, 6)
        .map((v, i) => (i < 5 ? v.padEnd(widths[i]!) : v))
        .join('  ') + (r[6] ? `\n  hint: ${r[6]}` : ''),
  );
  const failed = rows.filter((r) => r[4] === 'FAIL').length;
  return `${lines.join('\n')}\n${failed === 0 ? `all ${rows.length} checks pass` : `${failed} of ${rows.length} checks fail`}\n`;
}

function parseContexts(value: string | undefined): Map<string, string> {
  const map = new Map<string, string>();
  for (const pair of value ? value.split(',') : []) {
    const eq = pair.indexOf('=');
    if (eq <= 0 || eq === pair.length - 1) throw new StatusUsageError(`--contexts takes clusterID=context pairs separated by commas, not "${pair}"`);
    map.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  return map;
}

class RefusedFile extends Error {}

/** The cluster IDs with a file in a folder of saved objects (names only: each file is read as a dump is). */
function savedClusterIDs(dir: string): Set<string> {
  try {
    return new Set(
      readdirSync(dir)
        .filter((name) => name.endsWith('.yaml'))
        .map((name) => name.slice(0, -'.yaml'.length)),
    );
  } catch (err) {
    throw new StatusUsageError(`--from ${dir}: ${errnoCode(err) === 'ENOENT' ? 'no such folder' : `cannot list it (${errnoCode(err) ?? String(err)})`}`);
  }
}

/** `<dir>/<clusterID>.yaml`: what `kubectl get <kinds> -A -o yaml` printed for that cluster. */
const savedObjects =
  (dir: string): ReadCluster =>
  (clusterID) => {
    const file = join(dir, `${clusterID}.yaml`);
    try {
      // read as a definition or a dump is (#37 item 1): a link out of its folder, a FIFO or a device is refused unread
      const read = readSourceFile(file, DUMP_LIMITS.maxBytes);
      if (!read.ok) throw read.reason instanceof Error ? read.reason : new RefusedFile(`${String(read.reason)}; ${read.hint}`);
      return Promise.resolve(parseLiveObjects(read.text));
    } catch (err) {
      if (errnoCode(err) === 'ENOENT') return Promise.resolve({ error: `no saved objects: ${file} does not exist` });
      if (err instanceof LiveObjectsError) return Promise.resolve({ error: `${file} is not kubectl output: ${err.message}` });
      return Promise.resolve({ error: `cannot read ${file}: ${err instanceof Error ? err.message : String(err)}` });
    }
  };

/** `kubectl --context <ctx> get <kind> -A -o yaml`: read-only, one request per checked kind. */
const kubectlGet = (context: string, resource: string): string[] => [
  '--context',
  context,
  'get',
  resource,
  '--all-namespaces',
  '--request-timeout=30s',
  '-o',
  'yaml',
];

/** kubectl's words for a --context the kubeconfig does not have (client-go tools/clientcmd/validation.go, errContextNotFound) */
const NO_SUCH_CONTEXT = /context was not found for specified context/;

/** A cluster without a kind's CRD (a dedicated leader has no ServiceImport) simply has none of them. */
const NO_SUCH_KIND = /the server doesn't have a resource type/;

const liveObjects =
  (contexts: ReadonlyMap<string, string>): ReadCluster =>
  async (clusterID) => {
    const context = contexts.get(clusterID) ?? clusterID;
    const texts: string[] = [];
    for (const resource of Object.values(LIVE_KINDS)) {
      try {
        texts.push((await promisify(execFile)('kubectl', kubectlGet(context, resource), { maxBuffer: 64 * 1024 * 1024 })).stdout);
      } catch (err) {
        const detail = (err as { stderr?: string }).stderr?.trim() || (err instanceof Error ? err.message : String(err));
        if (NO_SUCH_KIND.test(detail)) continue;
        return { error: `kubectl --context ${context} get ${resource}: ${detail.split('\n')[0]!}` };
      }
    }
    try {
      return parseLiveObjects(texts.join('\n---\n'));
    } catch (err) {
      return { error: `kubectl --context ${context}: unreadable output: ${err instanceof Error ? err.message : String(err)}` };
    }
  };
