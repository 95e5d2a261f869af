import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';
import { createHash } from 'node:crypto';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { LineIndex } from '../load/source-file';
import { findTokenMaterial } from './token-material';

/**
 * secretlint's core marks the start and end of every rule run on the process's performance
 * timeline, and its profiler keeps every mark forever and searches them linearly at each end mark
 * (@secretlint/profiler, the PerformanceObserver in SecretLintProfiler's constructor): a fleet
 * synth scans a thousand bundles, which made that bookkeeping quadratic (a fifth of a
 * 1,000-cluster synth) and its memory unbounded. We never read the profile, so marking is off.
 */
secretLintProfiler.mark = () => undefined;

/** secretlint's recommended preset: the maintained detectors (cloud keys, tokens, private keys, basic auth, …). */
const OPTIONS = { config: { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommended }] } };

export interface SecretFinding {
  /** offsets into the scanned text */
  readonly start: number;
  readonly end: number;
  /** the detector, e.g. `github`, `aws`, `privatekey`: never the value itself */
  readonly detector: string;
}

/** secretlint's findings in a text, as offsets and the detector's rule id. */
export interface LintMessage {
  readonly range: readonly [number, number];
  readonly ruleId: string;
}

/** secretlint's recommended preset over one text (the only asynchronous step of a scan). */
export async function lintSecrets(text: string, filePath: string): Promise<LintMessage[]> {
  const ext = filePath.slice(filePath.lastIndexOf('.'));
  const result = await lintSource({ source: { content: text, filePath, ext, contentType: 'text' }, options: OPTIONS });
  return result.messages.map((m) => ({ range: [m.range[0], m.range[1]], ruleId: m.ruleId }));
}

/**
 * secretlint's messages and the Kubernetes token material of a text (token-material.ts: JSON Web
 * Tokens and PEM blocks, also encoded, prefixed or inside other text, which the preset does not
 * look for), in text order.
 */
export function findingsOf(text: string, messages: readonly LintMessage[]): SecretFinding[] {
  const found = messages.map((m) => ({ start: m.range[0], end: m.range[1], detector: m.ruleId.replace(/^@secretlint\/secretlint-rule-/, '') }));
  for (const m of findTokenMaterial(text)) found.push({ start: m.start, end: m.end, detector: m.kind });
  return found.sort((a, b) => a.start - b.start);
}

/** Every secret-like value in a text: values, keys and comments alike, whatever the format. */
export async function findSecrets(text: string, filePath: string): Promise<SecretFinding[]> {
  return findingsOf(text, await lintSecrets(text, filePath));
}

const HINT = 'keep credentials out of git: reference them (tokenSecret.source "externalSecret" or "sealedSecret"), never paste them';

/**
 * `inline-secret` for a definition's whole text (every string, key and comment), located at the
 * value. The message names the detector, never the secret: diagnostics reach CI logs.
 */
export async function scanDefinitionText(file: string, text: string, diagnostics: Diagnostic[]): Promise<void> {
  definitionSecrets(file, text, await findSecrets(text, file), diagnostics);
}

export function definitionSecrets(file: string, text: string, findings: readonly SecretFinding[], diagnostics: Diagnostic[]): void {
  const lines = new LineIndex(text);
  // a line the inline-secret rule already reported is not reported twice
  const reported = new Set(diagnostics.filter((d) => d.code === 'inline-secret' && d.file === file).map((d) => d.line));
  for (const f of findings) {
    const span = lines.span(f.start, f.end);
    if (reported.has(span.line)) continue;
    diagnostics.push({
      code: 'inline-secret',
      severity: 'error',
      message: `a secret (${f.detector}) is written in the definition`,
      file,
      path: [],
      ...span,
      hint: HINT,
    });
  }
}

/**
 * The same detectors over files about to be written: a secret that reached the output by any
 * route (a value split across fields, a transformation) stops the run before anything is written.
 * A file whose bytes were scanned before in this process is not scanned again (`ScannedFiles`).
 */
export async function scanOutputFiles(
  definition: string,
  files: readonly { path: string; content: string }[],
  diagnostics: Diagnostic[],
  record: ScannedFiles = SCANNED,
): Promise<void> {
  const batch = record.begin(files);
  if (batch.pending.length > 0) record.finish(batch, await findSecrets(joinFiles(batch.pending), 'output.yaml'));
  outputSecrets(definition, files, batch, diagnostics);
}

/** One scan per batch: files joined with a separator no detector matches across. */
export const joinFiles = (files: readonly { content: string }[]): string => files.map((f) => f.content).join(SEPARATOR);
const SEPARATOR = '\n\u0000\n';

/** One output scan: each file's key, the findings known so far by key, and the contents (each once) still to scan. */
export interface ScanBatch {
  readonly keys: readonly string[];
  readonly found: Map<string, readonly SecretFinding[]>;
  readonly pending: readonly { readonly key: string; readonly content: string }[];
}

/**
 * The findings of each file's bytes, by their SHA-256, in this process: a fleet's bundles repeat
 * the same upstream files (the CRDs, the Antrea manifests of a release), and so do the runs of a
 * long-lived process, so about half of what a synth writes has been scanned before. The detectors
 * read nothing but the text, and no finding crosses the separator of a batch, so a file's
 * findings are the same whichever batch it was scanned in. Bounded: the oldest entries go first;
 * a batch keeps its own findings, so an entry that goes during a batch is still reported.
 */
export class ScannedFiles {
  private readonly findings = new Map<string, readonly SecretFinding[]>();
  constructor(private readonly limit = 100_000) {}

  /** A batch of files: what is known of them, and what is left to scan. */
  begin(files: readonly { content: string }[]): ScanBatch {
    const keys = files.map((f) => keyOf(f.content));
    const found = new Map<string, readonly SecretFinding[]>();
    const pending: { key: string; content: string }[] = [];
    const queued = new Set<string>();
    files.forEach((f, i) => {
      const key = keys[i]!;
      if (found.has(key) || queued.has(key)) return;
      const known = this.findings.get(key);
      if (known) found.set(key, known);
      else {
        queued.add(key);
        pending.push({ key, content: f.content });
      }
    });
    return { keys, found, pending };
  }

  /** The findings of one scan of `joinFiles(batch.pending)`, split by file, offsets from each file's start. */
  finish(batch: ScanBatch, findings: readonly SecretFinding[]): void {
    let at = 0;
    let next = 0;
    for (const f of batch.pending) {
      const end = at + f.content.length;
      const own: SecretFinding[] = [];
      while (next < findings.length && findings[next]!.start < end + SEPARATOR.length) {
        const x = findings[next++]!;
        own.push({ ...x, start: x.start - at, end: Math.min(x.end, end) - at });
      }
      batch.found.set(f.key, own);
      if (this.findings.size >= this.limit) this.findings.delete(this.findings.keys().next().value!);
      this.findings.set(f.key, own);
      at = end + SEPARATOR.length;
    }
  }
}

/** `inline-secret` for each finding of each file of a finished batch, in file order. */
export function outputSecrets(definition: string, files: readonly { path: string; content: string }[], batch: ScanBatch, diagnostics: Diagnostic[]): void {
  files.forEach((f, i) => {
    for (const finding of batch.found.get(batch.keys[i]!) ?? []) {
      // a file is named by its object, whose name may be the secret: the message never shows it
      const secret = f.content.slice(finding.start, finding.end);
      const path = secret ? f.path.split(secret).join('<redacted>') : f.path;
      diagnostics.push({
        code: 'inline-secret',
        severity: 'error',
        message: `${path} would hold a secret (${finding.detector}); nothing is written`,
        file: definition,
        path: [],
        line: 1,
        column: 1,
        hint: HINT,
      });
    }
  });
}

const keyOf = (content: string): string => createHash('sha256').update(content).digest('base64');

/** The process's record of scanned files, shared by the asynchronous and the synchronous scans. */
export const SCANNED = new ScannedFiles();
