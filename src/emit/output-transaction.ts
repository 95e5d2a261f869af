import * as nodeFs from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { basename, dirname, join, relative, sep } from 'node:path';
import { resolve } from 'node:path';
import { MANIFEST } from './manifest';

/** A user-facing refusal (exit code 2), not a bug. */
export class OutputError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/**
 * The steps of a commit, in order, where a test hook can stop the writer (`FileSystemOps.at`):
 * `prepared` the next tree is complete beside the output; `committed` the commit record is written;
 * `moved-old` the output has become the backup (the output is absent); `moved-new` the next tree is
 * the output; `kept-spare` the backup has become the spare; `recorded` the spare's record is written.
 */
export type CommitStep = 'prepared' | 'committed' | 'moved-old' | 'moved-new' | 'kept-spare' | 'recorded';

/** The mutating file-system calls of a transaction; fault-injection tests wrap them to "kill" it. */
export interface FileSystemOps {
  writeFileSync(path: string, data: string): void;
  renameSync(from: string, to: string): void;
  rmSync(path: string, options: { recursive: boolean; force: boolean }): void;
  mkdirSync(path: string, options: { recursive: boolean }): void;
  linkSync(existing: string, path: string): void;
  /** throws when the path may not be written (EROFS, EACCES); tests stand in for a read-only mount */
  accessSync(path: string, mode: number): void;
  /** called at each step of the commit (a test hook: drills stop or kill the writer there) */
  at?(step: CommitStep): void;
}

const realFs: FileSystemOps = {
  writeFileSync: (p, d) => nodeFs.writeFileSync(p, d),
  renameSync: (a, b) => nodeFs.renameSync(a, b),
  rmSync: (p, o) => nodeFs.rmSync(p, o),
  mkdirSync: (p, o) => void nodeFs.mkdirSync(p, o),
  linkSync: (a, b) => nodeFs.linkSync(a, b),
  accessSync: (p, m) => nodeFs.accessSync(p, m),
  at: pauseAt,
};

/**
 * The kill drills' hook (test/emit/crash-safety.test.ts): with CLUSTERSET_TEST_PAUSE_AT naming a
 * step, the writer says so on stderr and waits there until it is killed.
 */
function pauseAt(step: CommitStep): void {
  if (process.env.CLUSTERSET_TEST_PAUSE_AT !== step) return;
  nodeFs.writeSync(2, `paused at ${step}\n`);
  const wait = new Int32Array(new SharedArrayBuffer(4));
  for (;;) Atomics.wait(wait, 0, 0, 1000);
}

/** Thrown by an injected fault: the transaction stops as if the process had been killed. */
export class SimulatedCrash extends Error {}

/** What the spare tree is: the output whose manifest.json has this hash, except at these paths. */
interface SpareRecord {
  readonly base: string;
  readonly differs: readonly string[];
}

/** An older version's journal: deletions, then staged files moved in one by one. */
interface LegacyJournal {
  readonly deletes: readonly string[];
  readonly moves: readonly string[];
}

/** locks this process holds: a lock naming this process but none of these is a crashed transaction's */
const heldLocks = new Set<string>();

/**
 * One synth's changes to the output directory. The invariant: whenever a reader looks, the output
 * is the old tree or the new one, never a mix; it is absent only between two renames of a commit,
 * and the next run restores it. Under kill -9 at any moment:
 *
 * - a lock file beside the output (`.<out>.clusterset/lock`) keeps two writers apart (the second is
 *   refused, so no update is lost); a lock whose process is gone is taken over;
 * - the new tree is built whole in `.<out>.clusterset/next`, never in the output: from the spare (the
 *   tree before the previous commit, kept with a record of the paths where it differs from the
 *   output), those paths brought up to date by hard links to the output's files, then this run's
 *   files written and removals made. So a run costs what changed in this and the previous run, not
 *   the size of the output; without a valid spare (first run in a checkout, output changed since)
 *   every file of the output is hard-linked once;
 * - the commit point is a record (`commit.json`) written after `next` is complete; then the output
 *   is renamed to `old`, `next` to the output, and `old` becomes the spare. A run that finds the
 *   record finishes those renames (roll forward); one that finds `next` without it drops it;
 * - `--check` reads and never writes, not even the lock: a pending commit record is reported.
 *
 * No file is ever written in place: a file of `next` may be a hard link to the output's. Durability
 * against power loss (fsync) is not a goal: git holds the output.
 */
export class OutputTransaction {
  readonly out: string;
  private readonly state: string;
  private readonly next: string;
  private readonly fs: FileSystemOps;
  private readonly check: boolean;
  private readonly written = new Set<string>();
  private readonly deletes: string[] = [];
  private readonly staleFiles: string[] = [];
  /** folders made in `next` in this transaction: a fleet's files share few folders */
  private readonly madeDirs = new Set<string>();
  /** folder listings of the output, which does not change before the commit */
  private readonly listings = new Map<string, Set<string>>();
  private outExists = false;
  private prepared = false;
  private lockToken: string | undefined;

  constructor(out: string, options: { check: boolean; fs?: FileSystemOps }) {
    this.out = resolve(out);
    this.state = join(dirname(this.out), `.${basename(this.out)}.clusterset`);
    this.next = join(this.state, 'next');
    this.fs = options.fs ?? realFs;
    this.check = options.check;
  }

  /** Lock, finish or drop what a killed run left, and refuse a directory that is not ours; with check, only look. */
  begin(): void {
    if (this.check) this.assertNothingPending();
    else {
      // a read-only output (a read-only mount, no write permission) is named before anything is written
      const target = [this.out, dirname(this.out)].find((p) => nodeFs.existsSync(p));
      if (target) this.fs.accessSync(target, nodeFs.constants.W_OK);
      this.fs.mkdirSync(this.state, { recursive: true });
      // the state folder sits in the user's repository: git ignores it whole
      if (!nodeFs.existsSync(join(this.state, '.gitignore'))) this.fs.writeFileSync(join(this.state, '.gitignore'), '*\n');
      this.lock();
      recover(this.out, this.state, this.fs);
    }
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
    return this.written.size + this.deletes.length;
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

  /** The file as it must be: written into the next tree when its bytes differ from the output's (with check: reported). */
  put(rel: string, content: string): void {
    const current = this.read(rel);
    if (current === content) return;
    if (this.check) {
      this.staleFiles.push(`${rel} (${current === undefined ? 'missing' : 'changed'})`);
      return;
    }
    this.prepare();
    const target = join(this.next, rel);
    const dir = dirname(target);
    if (!this.madeDirs.has(dir)) {
      this.fs.mkdirSync(dir, { recursive: true });
      this.madeDirs.add(dir);
    }
    // recorded first: a write that fails half-way still marks the path as differing from the output
    this.written.add(rel);
    // never in place: the file there may be a hard link to the output's
    if (current !== undefined) this.fs.rmSync(target, { recursive: false, force: true });
    this.fs.writeFileSync(target, content);
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
      else this.remove(entry);
    }
  }

  private remove(rel: string): void {
    if (this.check) {
      this.staleFiles.push(`${rel} (not generated)`);
      return;
    }
    this.prepare();
    this.deletes.push(rel);
    this.fs.rmSync(join(this.next, rel), { recursive: true, force: true });
  }

  /**
   * The next tree starts as the output: the spare with the paths where it differs brought up to
   * date, or (without a valid spare) hard links to every file of the output.
   */
  private prepare(): void {
    if (this.prepared) return;
    const spare = join(this.state, 'spare');
    const record = this.outExists ? readSpareRecord(this.state) : undefined;
    const base = this.outExists ? manifestHash(this.out) : undefined;
    // the record goes first: a spare without one is never trusted
    this.fs.rmSync(join(this.state, 'spare.json'), { recursive: false, force: true });
    if (record && record.base === base && nodeFs.existsSync(spare)) {
      this.fs.renameSync(spare, this.next);
      // hidden top-level entries are the user's, never ours: taken from the output as they are now
      const hidden = [...new Set([...nodeFs.readdirSync(this.out), ...nodeFs.readdirSync(this.next)])].filter((e) => e.startsWith('.'));
      for (const rel of [...record.differs, ...hidden]) {
        this.fs.rmSync(join(this.next, rel), { recursive: true, force: true });
        if (nodeFs.existsSync(join(this.out, rel))) linkTree(join(this.out, rel), join(this.next, rel), this.fs);
        else pruneEmpty(this.next, rel, this.fs);
      }
    } else {
      this.fs.rmSync(spare, { recursive: true, force: true });
      if (this.outExists) linkTree(this.out, this.next, this.fs);
      else this.fs.mkdirSync(this.next, { recursive: true });
    }
    // only a complete next tree may become the spare (abandon)
    this.prepared = true;
  }

  /** Make the next tree the output (see the class comment for the steps and the invariant). */
  commit(): void {
    if (!this.check && this.changes > 0) {
      const differs = [...this.written, ...this.deletes].sort();
      // folders emptied by removals go, as a full synth would not make them
      for (const rel of this.deletes) pruneEmpty(this.next, rel, this.fs);
      this.fs.at?.('prepared');
      if (!this.outExists) {
        // nothing to keep: the next tree becomes the output in one rename, and a spare is linked
        // from it, so that the next run costs what it changes
        this.fs.renameSync(this.next, this.out);
        this.fs.at?.('moved-new');
        const spare = join(this.state, 'spare');
        this.fs.rmSync(spare, { recursive: true, force: true });
        linkTree(this.out, spare, this.fs);
        writeAtomically(join(this.state, 'spare.json'), JSON.stringify({ base: manifestHash(this.out) ?? '', differs: [] }), this.fs);
      } else {
        const record: SpareRecord = { base: manifestHash(this.next) ?? '', differs };
        writeAtomically(join(this.state, 'commit.json'), JSON.stringify(record), this.fs);
        this.fs.at?.('committed');
        finishCommit(this.out, this.state, record, this.fs);
      }
    }
    this.cleanUp();
  }

  /** Nothing is committed; the output stays as it was, and the next tree is kept as the spare. */
  abandon(): void {
    if (this.prepared && this.outExists && nodeFs.existsSync(this.next)) {
      this.fs.renameSync(this.next, join(this.state, 'spare'));
      const record: SpareRecord = { base: manifestHash(this.out) ?? '', differs: [...this.written, ...this.deletes].sort() };
      writeAtomically(join(this.state, 'spare.json'), JSON.stringify(record), this.fs);
    }
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
    if (this.check) return;
    this.fs.rmSync(this.next, { recursive: true, force: true });
    this.release();
  }

  /** With check: a commit that a killed run left unfinished, or another run writing, is said, not finished. */
  private assertNothingPending(): void {
    const pending = ['commit.json', 'journal.json'].some((f) => nodeFs.existsSync(join(this.state, f)));
    if (pending || (!nodeFs.existsSync(this.out) && nodeFs.existsSync(join(this.state, 'old'))))
      throw new OutputError(
        `${displayPath(this.out)} has an interrupted synth pending (${displayPath(this.state)}): it is the old tree until a synth finishes the commit`,
        'run `clusterset synth` to finish it, then check again',
      );
    let holder = '';
    try {
      holder = nodeFs.readFileSync(join(this.state, 'lock'), 'utf8');
    } catch {
      return;
    }
    if (isAlive(holder))
      throw new OutputError(`${displayPath(this.out)} is being written by another clusterset process (pid ${holder.split(' ')[0]}); wait for it to finish`);
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
  }
}

/**
 * From the commit record on, idempotent: output → old, next → output, old → spare, the spare's
 * record, then the commit record goes. A failure (not a kill) before the output is the next tree
 * puts the old one back.
 */
function finishCommit(out: string, state: string, record: SpareRecord, fs: FileSystemOps): void {
  const next = join(state, 'next');
  const old = join(state, 'old');
  const spare = join(state, 'spare');
  if (nodeFs.existsSync(next)) {
    try {
      if (nodeFs.existsSync(out)) {
        fs.rmSync(old, { recursive: true, force: true });
        fs.renameSync(out, old);
        fs.at?.('moved-old');
      }
      fs.renameSync(next, out);
    } catch (err) {
      // refused (a read-only or busy output), not killed: the old tree stays, nothing is committed
      if (!(err instanceof SimulatedCrash)) {
        if (!nodeFs.existsSync(out) && nodeFs.existsSync(old)) nodeFs.renameSync(old, out);
        nodeFs.rmSync(join(state, 'commit.json'), { force: true });
        if (['EBUSY', 'EXDEV'].includes((err as NodeJS.ErrnoException).code ?? ''))
          throw new OutputError(
            `cannot replace ${displayPath(out)}: it is a mount point, and the output is replaced whole by renames beside it`,
            'make --out a folder inside the mounted file system, not the mount point itself',
          );
      }
      throw err;
    }
    fs.at?.('moved-new');
  }
  if (nodeFs.existsSync(old)) {
    fs.rmSync(spare, { recursive: true, force: true });
    fs.renameSync(old, spare);
    fs.at?.('kept-spare');
  }
  if (nodeFs.existsSync(spare)) {
    writeAtomically(join(state, 'spare.json'), JSON.stringify(record), fs);
    fs.at?.('recorded');
  }
  fs.rmSync(join(state, 'commit.json'), { recursive: false, force: true });
}

/** Finish a committed run, drop an uncommitted next tree, remove older versions' leftovers. */
function recover(out: string, state: string, fs: FileSystemOps): void {
  const commitFile = join(state, 'commit.json');
  if (nodeFs.existsSync(commitFile)) finishCommit(out, state, JSON.parse(nodeFs.readFileSync(commitFile, 'utf8')) as SpareRecord, fs);
  const legacyJournal = join(state, 'journal.json');
  if (nodeFs.existsSync(legacyJournal)) applyLegacy(out, state, JSON.parse(nodeFs.readFileSync(legacyJournal, 'utf8')) as LegacyJournal, fs);
  // not committed: the output is the old tree (put back if a run stopped between the two renames)
  const old = join(state, 'old');
  if (nodeFs.existsSync(old) && !nodeFs.existsSync(out)) fs.renameSync(old, out);
  for (const leftover of ['next', 'old', 'staging', 'journal.json.tmp', 'commit.json.tmp', 'spare.json.tmp'])
    fs.rmSync(join(state, leftover), { recursive: true, force: true });
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

/** An older version's committed journal, finished as that version would (idempotent). */
function applyLegacy(out: string, state: string, journal: LegacyJournal, fs: FileSystemOps): void {
  const staging = join(state, 'staging');
  for (const rel of journal.deletes) {
    fs.rmSync(join(out, rel), { recursive: true, force: true });
    pruneEmpty(out, rel, fs);
  }
  for (const rel of journal.moves) {
    const from = join(staging, rel);
    if (!nodeFs.existsSync(from)) continue; // moved before the kill
    fs.mkdirSync(dirname(join(out, rel)), { recursive: true });
    fs.renameSync(from, join(out, rel));
  }
  fs.rmSync(join(state, 'journal.json'), { recursive: false, force: true });
}

/** `to` (absent) becomes a tree of hard links to the files of `from`; copies where links are refused. */
function linkTree(from: string, to: string, fs: FileSystemOps): void {
  if (!nodeFs.statSync(from).isDirectory()) {
    fs.mkdirSync(dirname(to), { recursive: true });
    linkFile(from, to, fs);
    return;
  }
  fs.mkdirSync(to, { recursive: true });
  for (const e of nodeFs.readdirSync(from, { withFileTypes: true, recursive: true })) {
    const rel = e.parentPath === from ? e.name : `${e.parentPath.slice(from.length + 1)}${sep}${e.name}`;
    if (e.isDirectory()) fs.mkdirSync(join(to, rel), { recursive: true });
    else if (e.isSymbolicLink()) nodeFs.symlinkSync(nodeFs.readlinkSync(join(from, rel)), join(to, rel));
    else linkFile(join(from, rel), join(to, rel), fs);
  }
}

function linkFile(from: string, to: string, fs: FileSystemOps): void {
  try {
    fs.linkSync(from, to);
  } catch (err) {
    // a file system without hard links (or at the limit of links of a file)
    if (!['EXDEV', 'EPERM', 'ENOTSUP', 'EMLINK', 'EOPNOTSUPP'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
    nodeFs.copyFileSync(from, to);
  }
}

/** Folders of `base` left empty above `rel` go (deepest first), as a full synth would not make them. */
function pruneEmpty(base: string, rel: string, fs: FileSystemOps): void {
  for (let d = dirname(rel); d !== '.' && d !== ''; d = dirname(d)) {
    const dir = join(base, d);
    try {
      if (nodeFs.readdirSync(dir).length > 0) return;
    } catch {
      return;
    }
    fs.rmSync(dir, { recursive: true, force: true }); // empty: no file goes with it
  }
}

function writeAtomically(file: string, content: string, fs: FileSystemOps): void {
  fs.writeFileSync(`${file}.tmp`, content);
  fs.renameSync(`${file}.tmp`, file);
}

function readSpareRecord(state: string): SpareRecord | undefined {
  try {
    const r = JSON.parse(nodeFs.readFileSync(join(state, 'spare.json'), 'utf8')) as Partial<SpareRecord>;
    return typeof r.base === 'string' && Array.isArray(r.differs)
      ? { base: r.base, differs: r.differs.filter((p) => typeof p === 'string' && safeRelative(p)) }
      : undefined;
  } catch {
    return undefined;
  }
}

/** a record's path stays inside the tree */
const safeRelative = (p: string) => p !== '' && !p.startsWith('/') && !p.split('/').includes('..');

/** The identity of a tree this compiler wrote: its manifest's bytes. */
function manifestHash(dir: string): string | undefined {
  try {
    return createHash('sha256')
      .update(nodeFs.readFileSync(join(dir, MANIFEST)))
      .digest('hex');
  } catch {
    return undefined;
  }
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
  const tx = new OutputTransaction(out, { check: false, ...(fs && { fs }) });
  tx.begin();
  tx.abandon();
}
