import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { definitionSecrets, findingsOf, joinFiles, outputSecrets, SCANNED, type LintMessage, type SecretFinding } from './scan-secrets';

/*
 * The same scans for callers that cannot wait: cdk8s builds constructs synchronously. secretlint
 * is asynchronous, so it runs in a worker thread and this thread blocks on Atomics.wait until the
 * answer is posted (synckit's technique). One worker per process, unref'd, started on first use.
 */

// the worker is a plain script (no TypeScript, no bundler): it imports secretlint by the paths
// this module resolves, and turns off the profiler's marks as scan-secrets.ts does
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const loaded = Promise.all(workerData.modules.map((m) => import(m))).then(([core, profiler, preset]) => {
  profiler.secretLintProfiler.mark = () => undefined;
  const options = { config: { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: preset.creator }] } };
  return (content, filePath) => core.lintSource({ source: { content, filePath, ext: filePath.slice(filePath.lastIndexOf('.')), contentType: 'text' }, options });
});
parentPort.on('message', async ({ port, signal, content, filePath }) => {
  let reply;
  try {
    const lint = await loaded;
    const result = await lint(content, filePath);
    reply = { messages: result.messages.map((m) => ({ range: [m.range[0], m.range[1]], ruleId: m.ruleId })) };
  } catch (err) {
    reply = { error: String(err && err.stack || err) };
  }
  port.postMessage(reply);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
  port.close();
});
`;

let worker: Worker | undefined;

function secretlintWorker(): Worker {
  if (worker) return worker;
  // this module's own path: __filename in the CommonJS build, import.meta.url elsewhere
  const here = typeof __filename === 'string' ? __filename : fileURLToPath(import.meta.url);
  const require = createRequire(here);
  const modules = ['@secretlint/core', '@secretlint/profiler', '@secretlint/secretlint-rule-preset-recommend'].map(
    (m) => pathToFileURL(require.resolve(m)).href,
  );
  worker = new Worker(WORKER, { eval: true, workerData: { modules } });
  worker.unref();
  return worker;
}

/** secretlint's messages for one text, computed in the worker while this thread waits. */
function lintSecretsSync(content: string, filePath: string): LintMessage[] {
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  secretlintWorker().postMessage({ port: port2, signal, content, filePath }, [port2]);
  Atomics.wait(signal, 0, 0);
  const reply = receiveMessageOnPort(port1)?.message as { messages?: LintMessage[]; error?: string } | undefined;
  port1.close();
  if (!reply?.messages) throw new Error(`the secret scan failed: ${reply?.error ?? 'no answer from its worker'}`);
  return reply.messages;
}

function findSecretsSync(text: string, filePath: string): SecretFinding[] {
  return findingsOf(text, lintSecretsSync(text, filePath));
}

/** scanDefinitionText, synchronously. */
export function scanDefinitionTextSync(file: string, text: string, diagnostics: Diagnostic[]): void {
  definitionSecrets(file, text, findSecretsSync(text, file), diagnostics);
}

/** scanOutputFiles, synchronously. */
export function scanOutputFilesSync(definition: string, files: readonly { path: string; content: string }[], diagnostics: Diagnostic[]): void {
  const batch = SCANNED.begin(files);
  if (batch.pending.length > 0) SCANNED.finish(batch, findSecretsSync(joinFiles(batch.pending), 'output.yaml'));
  outputSecrets(definition, files, batch, diagnostics);
}
