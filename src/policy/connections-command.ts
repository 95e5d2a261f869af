import { isPlainObject } from '../antrea/workloads/deep-merge';
import { hasErrors, type Diagnostic } from '../diagnostics/diagnostic';
import { diagnosticStyle } from '../diagnostics/diagnostic-style';
import { fileSystemDiagnostic } from '../diagnostics/file-system';
import { render } from '../diagnostics/render';
import { readSourceFile } from '../load/definition-folder';
import { findDefinitionFiles } from '../load/load-clustersets';
import { loadYaml } from '../load/load-yaml';
import type { ClusterSet } from '../model/clusterset';
import { validateDefinitions } from '../pipeline/pipeline';
import { endpointCluster, parseEndpoint, parsePort, type Endpoint, type PortWord } from './endpoint';
import { evaluateConnection, type Answer } from './evaluate-connection';
import type { Inventory } from './inventory';
import { INVENTORY_LIMITS, mergeInventories, readInventory } from './read-inventory';
import { answersJson, answersText } from './render-answer';
import { buildWorld, type World } from './world';

interface Stream {
  write(s: string): unknown;
  readonly isTTY?: boolean;
}

export interface ConnectionsOptions {
  readonly paths: readonly string[];
  readonly inventories: readonly string[];
  readonly from?: string;
  readonly to?: string;
  readonly port?: string;
  readonly queries?: string;
  readonly format: 'text' | 'json';
}

/** A mistake on the command line, in our words (the CLI prints it with a pointer to the help, exit 2). */
export class ConnectionsUsageError extends Error {}

interface Query {
  readonly from: Endpoint;
  readonly to: Endpoint;
  readonly port: PortWord;
}

/** Every file of the inventory, merged; diagnostics at the line of what is wrong. */
export function loadInventory(files: readonly string[], diagnostics: Diagnostic[]): Inventory | undefined {
  const parts = files.flatMap((file) => {
    const read = readSourceFile(file, INVENTORY_LIMITS.maxBytes);
    if (!read.ok) {
      diagnostics.push(fileSystemDiagnostic(file, 'read', read.reason, read.hint));
      return [];
    }
    const inventory = readInventory(file, read.text, diagnostics);
    return inventory ? [{ file, inventory }] : [];
  });
  if (hasErrors(diagnostics)) return undefined;
  return mergeInventories(parts, diagnostics);
}

/** `QUERIES.yaml`: a list of `{from, to, port}` in endpoint words; each mistake at its line. */
function loadQueries(file: string, diagnostics: Diagnostic[]): Query[] {
  const read = readSourceFile(file, INVENTORY_LIMITS.maxBytes);
  if (!read.ok) {
    diagnostics.push(fileSystemDiagnostic(file, 'read', read.reason, read.hint));
    return [];
  }
  const source = loadYaml(file, read.text, diagnostics);
  if (!source) return [];
  const problem = (path: (string | number)[], message: string) =>
    diagnostics.push({
      code: 'inventory',
      severity: 'error',
      message,
      file,
      path,
      ...source.locate(path),
      hint: 'a query is { from: east/shop/web, to: west/pay/api, port: TCP/8080 }',
    });
  if (!Array.isArray(source.data)) {
    problem([], 'the queries file must be a list of { from, to, port }');
    return [];
  }
  return source.data.flatMap((q, i): Query[] => {
    if (!isPlainObject(q)) return (problem([i], 'a query must be a map with from, to and port'), []);
    const word = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
    const from = parseEndpoint(word(q.from));
    const to = parseEndpoint(word(q.to));
    const port = parsePort(word(q.port));
    if (typeof from === 'string') problem([i, 'from'], from);
    if (typeof to === 'string') problem([i, 'to'], to);
    if (typeof port === 'string') problem([i, 'port'], port);
    return typeof from === 'string' || typeof to === 'string' || typeof port === 'string' ? [] : [{ from, to, port }];
  });
}

/** The world of the ClusterSet that holds the query's clusters (the first definition when none names them). */
function worldFor(worlds: readonly World[], q: Query): World {
  const ids = [q.from, q.to].flatMap((e) => endpointCluster(e) ?? []);
  return worlds.find((w) => ids.some((id) => w.clusters.has(id))) ?? worlds[0]!;
}

export async function connectionsCommand(
  options: ConnectionsOptions,
  io: { stdout: Stream; stderr: Stream },
  env: Readonly<Record<string, string | undefined>>,
): Promise<number> {
  if (options.inventories.length === 0) throw new ConnectionsUsageError('connections needs --inventory FILE (a ClusterSetInventory or a kubectl dump)');
  const single = [options.from, options.to, options.port].filter((v) => v !== undefined).length;
  if (options.queries !== undefined && single > 0) throw new ConnectionsUsageError('give either --queries FILE or --from, --to and --port, not both');
  if (options.queries === undefined && single < 3) throw new ConnectionsUsageError('connections needs --from, --to and --port (or --queries FILE)');
  const queries: Query[] = [];
  const diagnostics: Diagnostic[] = [];
  if (options.queries !== undefined) queries.push(...loadQueries(options.queries, diagnostics));
  else {
    const from = parseEndpoint(options.from!);
    const to = parseEndpoint(options.to!);
    const port = parsePort(options.port!);
    for (const v of [from, to, port]) if (typeof v === 'string') throw new ConnectionsUsageError(v);
    queries.push({ from: from as Endpoint, to: to as Endpoint, port: port as PortWord });
  }
  const files = findDefinitionFiles(options.paths, diagnostics);
  const checked = files.length > 0 ? await validateDefinitions(files) : undefined;
  diagnostics.push(...(checked?.diagnostics ?? []));
  const inventory = loadInventory(options.inventories, diagnostics);
  if (diagnostics.length > 0) {
    const { color } = diagnosticStyle('text', io.stderr, env);
    io.stderr.write(render('text', diagnostics, new Map(checked?.texts), { files: new Set(diagnostics.map((d) => d.file)).size, color }));
  }
  const definitions: ClusterSet[] = (checked?.parsed ?? []).map((p) => p.definition);
  if (hasErrors(diagnostics) || !inventory || definitions.length === 0) return 1;
  const worlds = definitions.map((d) => buildWorld(d, inventory));
  const answers: Answer[] = queries.map((q) => evaluateConnection(worldFor(worlds, q), q.from, q.to, q.port));
  io.stdout.write(options.format === 'json' ? answersJson(answers) : answersText(answers));
  return 0;
}
