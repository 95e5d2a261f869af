import * as nodeFs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';

/** A user-facing refusal (exit code 2), not a bug. */
export class OutputError extends Error {}

/** The mutating file-system calls of a transaction; fault-injection tests wrap them to "kill" it. */
export interface FileSystemOps {
  writeFileSync(path: string, data: string): void;
  renameSync(from: string, to: string): void;
  rmSync(path: string, options: { recursive: boolean; force: boolean }): void;
  mkdirSync(path: string, options: { recursive: boolean }): void;
}

const realFs: FileSystemOps = {
  writeFileSync: (p, d) => nodeFs.writeFileSync(p, d),
  renameSync: (a, b) => nodeFs.renameSync(a, b),
  rmSync: (p, o) => nodeFs.rmSync(p, o),
  mkdirSync: (p, o) => void nodeFs.mkdirSync(p, o),
};

/** Thrown by an injected fault: the transaction stops as if the process had been killed. */
export class SimulatedCrash extends Error {}

interface Journal {
  /** relative paths, applied in this order: deletions first, then staged files moved in */
  readonly deletes: readonly string[];
  readonly moves: readonly string[];
}

const MANIFEST = 'manifest.json';
/** locks this process holds: a lock naming this process but none of these is a crashed transaction's */
const heldLocks = new Set<string>();

/**
 * One synth's changes to the output directory, safe against kill -9 at any moment:
 *
 * - a lock file beside the output (`.<out>.clusterset/lock`) keeps two runs apart; a lock whose
 *   process is gone is taken over;
 * - changed files are written into a staging folder beside the output, never into it;
 * - the commit point is one rename: of the staging folder onto an absent output, or of a
 *   journal listing every deletion and move; the moves are renames within one file system;
 * - the next run finishes a committed journal (roll forward) or drops an uncommitted staging
 *   folder (roll back) before anything else, so the output is always the old or the new tree
 *   once a run has started; leftovers of older versions (`.clusterset-tmp-*`, `*.old-*`) go too.
 *
 * Durability against power loss (fsync) is not a goal: git holds the output.
 */
export class OutputTransaction {
  readonly out: string;
  private readonly state: string;
  private readonly staging: string;
  private readonly fs: FileSystemOps;
  private readonly check: boolean;
  private readonly moves: string[] = [];
  private readonly deletes: string[] = [];
  private readonly staleFiles: string[] = [];
  /** staging folders made in this transaction: a fleet's files share few folders, and a recursive mkdir is a system call each */
  private readonly madeDirs = new Set<string>();
  /** folder listings of the output, which does not change before the commit */
  private readonly listings = new Map<string, Set<string>>();
  private outExists = false;
  private lockToken: string | undefined;

  constructor(out: string, options: { check: boolean; fs?: FileSystemOps }) {
    this.out = resolve(out);
    this.state = join(dirname(this.out), `.${basename(this.out)}.clusterset`);
    this.staging = join(this.state, 'staging');
    this.fs = options.fs ?? realFs;
    this.check = options.check;
  }

  /** Lock, finish or drop what a killed run left, and refuse a directory that is not ours. */
  begin(): void {
    this.fs.mkdirSync(this.state, { recursive: true });
    this.lock();
    recover(this.out, this.state, this.fs);
    this.outExists = nodeFs.existsSync(this.out);
    if (this.outExists) {
      const entries = nodeFs.readdirSync(this.out).filter((e) => !e.startsWith('.'));
      if (entries.length > 0 && !nodeFs.existsSync(join(this.out, MANIFEST))) {
        this.release();
        throw new OutputError(`refusing to write into ${displayPath(this.out)}: it is not empty and has no ${MANIFEST} from a previous synth`);
      }
    }
  }

  get changes(): number {
    return this.moves.length + this.deletes.length;
  }

  get stale(): readonly string[] {
    return [...this.staleFiles].sort();
  }

  exists(rel: string): boolean {
    // rel is ours, relative with forward slashes: no path.join (its normalization showed in profiles)
    return this.outExists && nodeFs.existsSync(`${this.out}/${rel}`);
  }

  /** Whether the output has this file, from its folder's listing (read once): for the many files of one folder. */
  listed(rel: string): boolean {
    const slash = rel.lastIndexOf('/');
    const dir = rel.slice(0, Math.max(slash, 0));
    let names = this.listings.get(dir);
    if (!names) {
      names = new Set();
      if (this.outExists) {
        try {
          for (const e of nodeFs.readdirSync(`${this.out}/${dir}`, { withFileTypes: true })) if (!e.isDirectory()) names.add(e.name);
        } catch (err) {
          if (!isMissing(err)) throw err;
        }
      }
      this.listings.set(dir, names);
    }
    return names.has(rel.slice(slash + 1));
  }

  read(rel: string): string | undefined {
    if (!this.outExists) return undefined;
    try {
      return nodeFs.readFileSync(join(this.out, rel), 'utf8');
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  /** Files under a folder of the output. */
  countFiles(rel: string): number {
    return listFiles(this.out, rel, []).length;
  }

  /** The file as it must be: staged when its bytes differ from the output's (with check: reported). */
  put(rel: string, content: string): void {
    const current = this.read(rel);
    if (current === content) return;
    if (this.check) {
      this.staleFiles.push(`${rel} (${current === undefined ? 'missing' : 'changed'})`);
      return;
    }
    const target = join(this.staging, rel);
    const dir = dirname(target);
    if (!this.madeDirs.has(dir)) {
      this.fs.mkdirSync(dir, { recursive: true });
      this.madeDirs.add(dir);
    }
    this.fs.writeFileSync(target, content);
    this.moves.push(rel);
  }

  /** Every file under `dir` that is neither expected nor inside a kept folder is removed. */
  removeOthers(dir: string, expected: ReadonlySet<string>, kept: readonly string[]): void {
    if (!this.outExists) return;
    for (const rel of listFiles(this.out, dir, kept)) if (!expected.has(rel)) this.remove(rel);
  }

  /** Top-level entries of the output other than these (hidden ones stay) are removed. */
  removeTopLevelExcept(names: ReadonlySet<string>): void {
    if (!this.outExists) return;
    for (const entry of nodeFs.readdirSync(this.out).sort()) {
      if (entry.startsWith('.') || names.has(entry)) continue;
      if (this.check) for (const rel of listFiles(this.out, entry, [])) this.staleFiles.push(`${rel} (not generated)`);
      else this.deletes.push(entry);
    }
  }

  private remove(rel: string): void {
    if (this.check) this.staleFiles.push(`${rel} (not generated)`);
    else this.deletes.push(rel);
  }

  /** Make the staged changes the output: one rename is the commit point. */
  commit(): void {
    if (!this.check && this.changes > 0) {
      if (!this.outExists) {
        // nothing to merge with: the staging folder becomes the output in one rename
        this.fs.renameSync(this.staging, this.out);
      } else {
        const journal: Journal = { deletes: this.deletes, moves: this.moves };
        this.fs.writeFileSync(join(this.state, 'journal.json.tmp'), JSON.stringify(journal));
        this.fs.renameSync(join(this.state, 'journal.json.tmp'), join(this.state, 'journal.json'));
        apply(this.out, this.state, journal, this.fs);
      }
    }
    this.cleanUp();
  }

  /** Drop everything staged; the output stays as it was. */
  abandon(): void {
    this.cleanUp();
  }

  /** true for an injected fault: like a killed process, the transaction leaves everything as it is. */
  crashed(err: unknown): boolean {
    if (!(err instanceof SimulatedCrash)) return false;
    // a dead process holds no lock: its lock file stays for the next run to take over
    if (this.lockToken) heldLocks.delete(this.lockToken);
    return true;
  }

  private cleanUp(): void {
    this.fs.rmSync(this.staging, { recursive: true, force: true });
    this.release();
  }

  private lock(): void {
    const file = join(this.state, 'lock');
    const token = `${process.pid} ${randomBytes(8).toString('hex')}`;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        nodeFs.writeFileSync(file, token, { flag: 'wx' });
        this.lockToken = token;
        heldLocks.add(token);
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      let holder = '';
      try {
        holder = nodeFs.readFileSync(file, 'utf8');
      } catch {
        continue; // released meanwhile
      }
      if (isAlive(holder))
        throw new OutputError(`${displayPath(this.out)} is being written by another clusterset process (pid ${holder.split(' ')[0]}); wait for it to finish`);
      this.fs.rmSync(file, { recursive: false, force: true });
    }
    throw new OutputError(`could not lock ${displayPath(this.out)}: ${file} keeps coming back`);
  }

  private release(): void {
    if (!this.lockToken) return;
    heldLocks.delete(this.lockToken);
    this.lockToken = undefined;
    this.fs.rmSync(join(this.state, 'lock'), { recursive: false, force: true });
    try {
      nodeFs.rmdirSync(this.state);
    } catch {
      // not empty or gone: the next run deals with it
    }
  }
}

/** Finish a committed journal, drop uncommitted staging, remove older versions' leftovers. */
function recover(out: string, state: string, fs: FileSystemOps): void {
  const journalFile = join(state, 'journal.json');
  if (nodeFs.existsSync(journalFile)) {
    const journal = JSON.parse(nodeFs.readFileSync(journalFile, 'utf8')) as Journal;
    apply(out, state, journal, fs);
  }
  for (const leftover of ['journal.json.tmp', 'staging']) fs.rmSync(join(state, leftover), { recursive: true, force: true });
  // what versions that swapped whole trees left behind when killed
  const parent = dirname(out);
  const name = basename(out);
  if (nodeFs.existsSync(parent)) {
    for (const entry of nodeFs.readdirSync(parent)) {
      if (entry.startsWith('.clusterset-tmp-')) fs.rmSync(join(parent, entry), { recursive: true, force: true });
      else if (entry.startsWith(`${name}.old-`)) {
        // killed between the two renames of a swap: the old tree is all that is left
        if (!nodeFs.existsSync(out)) fs.renameSync(join(parent, entry), out);
        else fs.rmSync(join(parent, entry), { recursive: true, force: true });
      }
    }
  }
  if (nodeFs.existsSync(out)) {
    for (const entry of nodeFs.readdirSync(out)) if (/\.old-\d+-\d+$/.test(entry)) fs.rmSync(join(out, entry), { recursive: true, force: true });
  }
}

/** Idempotent: a journal applied twice (a run killed while applying it) gives the same tree. */
function apply(out: string, state: string, journal: Journal, fs: FileSystemOps): void {
  const staging = join(state, 'staging');
  const touched = new Set<string>();
  for (const rel of journal.deletes) {
    fs.rmSync(join(out, rel), { recursive: true, force: true });
    touched.add(dirname(rel));
  }
  for (const rel of journal.moves) {
    const from = join(staging, rel);
    if (!nodeFs.existsSync(from)) continue; // moved before the kill
    fs.mkdirSync(dirname(join(out, rel)), { recursive: true });
    fs.renameSync(from, join(out, rel));
  }
  // folders emptied by deletions go too (deepest first)
  for (const dir of [...touched].sort((a, b) => b.length - a.length)) {
    for (let d = dir; d !== '.' && d !== ''; d = dirname(d)) {
      try {
        nodeFs.rmdirSync(join(out, d));
      } catch {
        break;
      }
    }
  }
  fs.rmSync(join(state, 'journal.json'), { recursive: false, force: true });
}

function isAlive(holder: string): boolean {
  const pid = Number(holder.split(' ')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  // this process's own lock from a transaction that did not finish (an injected fault)
  if (pid === process.pid) return heldLocks.has(holder);
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Files under `base/sub`, relative to `base` with forward slashes, skipping kept folders. */
function listFiles(base: string, sub: string, kept: readonly string[]): string[] {
  const skip = new Set(kept);
  const out: string[] = [];
  const walk = (rel: string) => {
    let entries: nodeFs.Dirent[];
    try {
      entries = nodeFs.readdirSync(join(base, rel), { withFileTypes: true });
    } catch (err) {
      if (isMissing(err)) return;
      throw err;
    }
    for (const e of entries) {
      const child = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (!skip.has(child)) walk(child);
      } else out.push(child);
    }
  };
  if (nodeFs.existsSync(join(base, sub)) && !nodeFs.statSync(join(base, sub)).isDirectory()) return [sub];
  walk(sub);
  return out;
}

const isMissing = (err: unknown) => ['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '');

const displayPath = (p: string) => relative(process.cwd(), p).split(sep).join('/') || p;

/** Finish or drop what a killed run left in and beside `out`, under the lock; nothing else. */
export function recoverOutput(out: string, fs?: FileSystemOps): void {
  const tx = new OutputTransaction(out, { check: true, ...(fs && { fs }) });
  tx.begin();
  tx.abandon();
}
