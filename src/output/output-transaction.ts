import * as nodeFs from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { resolve } from 'node:path';
import { MANIFEST } from './manifest';
import { displayPath, OutputError } from './output-error';
import { realFs, SimulatedCrash, type FileSystemOps } from './file-system-ops';
import { irregularKind, isMissing, linkFiles, linkTree, listFiles, makeDirs, pruneEmpty, readRegular, writeAtomically } from './output-tree';
import { OutputLock } from './output-lock';
import { checkState, finishCommit, manifestHash, readSpareRecord, recover, type SpareRecord } from './output-recovery';

/**
 * One synth's changes to the output directory. The invariant: whenever a reader looks, the output
 * is the old tree or the new one, never a mix; it is absent only between two renames of a commit,
 * and the next run restores it. Under kill -9 at any moment:
 *
 * - a lock file beside the output (`.<out>.clusterset/lock`, `output-lock.ts`) keeps two writers
 *   apart (the second is refused, so no update is lost); a lock whose process is gone is taken over;
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
  private removedCount = 0;
  /** folders made in `next` in this transaction: a fleet's files share few folders */
  private readonly madeDirs = new Set<string>();
  /** folder listings of the output, which does not change before the commit */
  private readonly listings = new Map<string, Set<string>>();
  /**
   * Entries of the output that are neither regular files nor folders (links, FIFOs, devices,
   * sockets), by path, with what they are: named, never read or followed, and replaced or removed
   * by a synth. A folder's entry stands for everything below it.
   */
  private readonly irregularEntries = new Map<string, string>();
  /** folders of the output known to be folders all the way down (or the irregular entry above them) */
  private readonly dirChecks = new Map<string, string | undefined>();
  /** folders the output does not have: nothing below them is looked up (a new ClusterSet's, an empty output's) */
  private readonly absentDirs = new Set<string>();
  /** irregular entries already taken out of the next tree */
  private readonly replaced = new Set<string>();
  private outExists = false;
  private prepared = false;
  private readonly outputLock: OutputLock;

  constructor(out: string, options: { check: boolean; fs?: FileSystemOps }) {
    this.out = resolve(out);
    this.state = join(dirname(this.out), `.${basename(this.out)}.clusterset`);
    this.next = join(this.state, 'next');
    this.fs = options.fs ?? realFs;
    this.check = options.check;
    this.outputLock = new OutputLock(this.out, this.state, this.fs);
  }

  /** Lock, finish or drop what a killed run left, and refuse a directory that is not ours; with check, only look. */
  begin(): void {
    // the state folder is the pull request's too until shown otherwise: refused before anything is touched
    checkState(this.out, this.state);
    if (this.check) this.assertNothingPending();
    else {
      // a read-only output (a read-only mount, no write permission) is named before anything is written
      const target = [this.out, dirname(this.out)].find((p) => nodeFs.existsSync(p));
      if (target) this.fs.accessSync(target, nodeFs.constants.W_OK);
      this.fs.mkdirSync(this.state, { recursive: true });
      // the state folder sits in the user's repository: git ignores it whole
      if (!nodeFs.existsSync(join(this.state, '.gitignore'))) this.fs.writeFileSync(join(this.state, '.gitignore'), '*\n');
      this.outputLock.take();
      recover(this.out, this.state, this.fs);
    }
    this.outExists = nodeFs.existsSync(this.out);
    if (this.outExists) {
      const entries = nodeFs.readdirSync(this.out).filter((e) => !e.startsWith('.'));
      if (entries.length > 0 && !nodeFs.existsSync(join(this.out, MANIFEST))) {
        this.outputLock.release();
        throw new OutputError(`refusing to write into ${displayPath(this.out)}: it is not empty and has no ${MANIFEST} from a previous synth`);
      }
    }
  }

  get changes(): number {
    return this.written.size + this.deletes.length;
  }

  /** files written or replaced */
  get writtenFiles(): number {
    return this.written.size;
  }

  /** files removed (a removed folder counts its files) */
  get removedFiles(): number {
    return this.removedCount;
  }

  get stale(): readonly string[] {
    return [...this.staleFiles].sort();
  }

  /** Entries of the output that were not regular files (`path (a symbolic link)`), in path order. */
  get irregular(): readonly string[] {
    return [...this.irregularEntries].map(([rel, kind]) => `${rel} (${kind})`).sort();
  }

  /** Whether the output has this regular file (below folders only: no link on the way). */
  exists(rel: string): boolean {
    if (!this.outExists || this.aboveIs(rel) !== undefined || this.inAbsentDir(rel)) return false;
    try {
      // rel is ours, relative with forward slashes: no path.join (its normalization showed in profiles)
      return nodeFs.lstatSync(`${this.out}/${rel}`).isFile();
    } catch {
      return false;
    }
  }

  /**
   * The irregular entry on the way to `rel` (a link to a folder, a FIFO where a folder is
   * expected), if any: each folder is looked at once.
   */
  private aboveIs(rel: string): string | undefined {
    const slash = rel.lastIndexOf('/');
    if (slash < 0) return undefined;
    const dir = rel.slice(0, slash);
    if (this.dirChecks.has(dir)) return this.dirChecks.get(dir);
    let found = this.aboveIs(dir);
    if (found === undefined && this.inAbsentDir(dir)) this.absentDirs.add(dir);
    else if (found === undefined) {
      try {
        const stats = nodeFs.lstatSync(`${this.out}/${dir}`);
        const kind = irregularKind(stats);
        if (kind) {
          found = dir;
          this.note(dir, kind);
        }
      } catch (err) {
        if (!isMissing(err)) throw err;
        this.absentDirs.add(dir);
      }
    }
    this.dirChecks.set(dir, found);
    return found;
  }

  /** Whether `rel`'s folder is one the output lacks (known once `aboveIs` looked at it): `rel` is absent then. */
  private inAbsentDir(rel: string): boolean {
    const slash = rel.lastIndexOf('/');
    return slash >= 0 && this.absentDirs.has(rel.slice(0, slash));
  }

  /** An irregular entry is named: with check as a stale line, in a synth as a finding of the result. */
  private note(rel: string, kind: string): void {
    if (this.irregularEntries.has(rel)) return;
    this.irregularEntries.set(rel, kind);
    if (this.check) this.staleFiles.push(`${rel} (${kind}: not read)`);
  }

  /** Whether the output has this file, from its folder's listing (read once): for the many files of one folder. */
  listed(rel: string): boolean {
    const slash = rel.lastIndexOf('/');
    const dir = rel.slice(0, Math.max(slash, 0));
    let names = this.listings.get(dir);
    if (!names) {
      names = new Set();
      if (this.outExists && (dir === '' || this.aboveIs(`${dir}/.`) === undefined)) {
        try {
          // regular files only: a link or a FIFO of that name is not the file
          for (const e of nodeFs.readdirSync(`${this.out}/${dir}`, { withFileTypes: true })) if (e.isFile()) names.add(e.name);
        } catch (err) {
          if (!isMissing(err)) throw err;
        }
      }
      this.listings.set(dir, names);
    }
    return names.has(rel.slice(slash + 1));
  }

  /** A regular file of the output; an irregular entry (named, see `irregular`) reads as absent. */
  read(rel: string): string | undefined {
    const current = this.current(rel);
    return typeof current === 'string' ? current : undefined;
  }

  /** The file's text, absent, or the irregular entry at or above it (named, never read). */
  private current(rel: string): string | { readonly entry: string } | undefined {
    if (!this.outExists) return undefined;
    const above = this.aboveIs(rel);
    if (above !== undefined) return { entry: above };
    if (this.inAbsentDir(rel)) return undefined;
    // rel is ours, relative with forward slashes: no path.join (a fleet's synth spent a second in it)
    const read = readRegular(`${this.out}/${rel}`);
    if (typeof read !== 'object') return read;
    this.note(rel, read.irregular);
    return { entry: rel };
  }

  /** The files under a folder of the output (paths relative to the output). */
  listFiles(rel: string): string[] {
    return this.outExists ? listFiles(this.out, rel, []) : [];
  }

  /** Files under a folder of the output. */
  countFiles(rel: string): number {
    return listFiles(this.out, rel, []).length;
  }

  /** The file as it must be: written into the next tree when its bytes differ from the output's (with check: reported). */
  put(rel: string, content: string): void {
    const current = this.current(rel);
    if (current === content) return;
    if (this.check) {
      // an irregular entry is already named
      if (typeof current !== 'object') this.staleFiles.push(`${rel} (${current === undefined ? 'missing' : 'changed'})`);
      return;
    }
    this.prepare();
    if (typeof current === 'object' && !this.replaced.has(current.entry)) {
      // the next tree holds the entry as the output does (a link, a FIFO): it goes, unread, before anything is written there
      this.replaced.add(current.entry);
      this.written.add(current.entry);
      this.fs.rmSync(join(this.next, current.entry), { recursive: true, force: true });
      for (const d of this.madeDirs) if (d === join(this.next, current.entry) || d.startsWith(`${join(this.next, current.entry)}/`)) this.madeDirs.delete(d);
    }
    const target = `${this.next}/${rel}`;
    const dir = target.slice(0, target.lastIndexOf('/'));
    if (!this.outExists) makeDirs(dir, this.next, this.madeDirs, this.fs);
    else if (!this.madeDirs.has(dir)) {
      // the next tree holds the output's folders: one recursive mkdir, and the folders above it are there too
      this.fs.mkdirSync(dir, { recursive: true });
      for (let d = dir; d.length > this.next.length && !this.madeDirs.has(d); d = d.slice(0, d.lastIndexOf('/'))) this.madeDirs.add(d);
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
    for (const rel of listFiles(this.out, dir, kept)) if (!expected.has(rel)) this.remove(rel, 1);
  }

  /** Top-level entries of the output other than these (hidden ones stay) are removed. */
  removeTopLevelExcept(names: ReadonlySet<string>): void {
    if (!this.outExists) return;
    for (const entry of nodeFs.readdirSync(this.out).sort()) {
      if (entry.startsWith('.') || names.has(entry)) continue;
      const files = listFiles(this.out, entry, []);
      if (this.check) for (const rel of files) this.remove(rel, 1);
      else this.remove(entry, files.length);
    }
  }

  private remove(rel: string, files: number): void {
    // an irregular entry already named (with check) or already replaced by generated files (a folder linked away)
    if (this.irregularEntries.has(rel) && (this.check || this.replaced.has(rel))) return;
    const kind = this.kindOf(rel);
    if (kind) this.irregularEntries.set(rel, kind);
    if (this.check) {
      this.staleFiles.push(`${rel} (not generated${kind ? `; ${kind}: not read` : ''})`);
      return;
    }
    this.prepare();
    this.deletes.push(rel);
    this.removedCount += files;
    this.fs.rmSync(join(this.next, rel), { recursive: true, force: true });
  }

  /** What an entry that is not generated is, when it is neither a regular file nor a folder. */
  private kindOf(rel: string): string | undefined {
    try {
      return irregularKind(nodeFs.lstatSync(join(this.out, rel)));
    } catch {
      return undefined;
    }
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
        // the next tree was made empty and holds exactly the files written (no removal without an output)
        linkFiles(this.out, spare, this.written, this.fs);
        writeAtomically(join(this.state, 'spare.json'), JSON.stringify({ base: manifestHash(this.out) ?? '', differs: [] }), this.fs);
      } else {
        const record: SpareRecord = { base: manifestHash(this.next) ?? '', differs };
        writeAtomically(join(this.state, 'commit.json'), JSON.stringify(record), this.fs);
        this.fs.at?.('committed');
        finishCommit(this.out, this.state, record, this.fs);
        // the spare is the old tree: with the pull request's links or FIFOs in it, it is no base to build on
        if (this.irregularEntries.size > 0) this.dropSpare();
      }
    }
    this.cleanUp();
  }

  /** Nothing is committed; the output stays as it was, and the next tree is kept as the spare. */
  abandon(): void {
    if (this.prepared && this.outExists && nodeFs.existsSync(this.next) && this.irregularEntries.size === 0) {
      this.fs.renameSync(this.next, join(this.state, 'spare'));
      const record: SpareRecord = { base: manifestHash(this.out) ?? '', differs: [...this.written, ...this.deletes].sort() };
      writeAtomically(join(this.state, 'spare.json'), JSON.stringify(record), this.fs);
    }
    this.cleanUp();
  }

  /** The record goes first: a spare without one is never trusted. */
  private dropSpare(): void {
    this.fs.rmSync(join(this.state, 'spare.json'), { recursive: false, force: true });
    this.fs.rmSync(join(this.state, 'spare'), { recursive: true, force: true });
  }

  /** true for an injected fault: like a killed process, the transaction leaves everything as it is. */
  crashed(err: unknown): boolean {
    if (!(err instanceof SimulatedCrash)) return false;
    // a dead process holds no lock: its lock file stays for the next run to take over
    this.outputLock.drop();
    return true;
  }

  private cleanUp(): void {
    if (this.check) return;
    this.fs.rmSync(this.next, { recursive: true, force: true });
    this.outputLock.release();
  }

  /** With check: a commit that a killed run left unfinished, or another run writing, is said, not finished. */
  private assertNothingPending(): void {
    const pending = ['commit.json', 'journal.json'].some((f) => nodeFs.existsSync(join(this.state, f)));
    if (pending || (!nodeFs.existsSync(this.out) && nodeFs.existsSync(join(this.state, 'old'))))
      throw new OutputError(
        `${displayPath(this.out)} has an interrupted synth pending (${displayPath(this.state)}): it is the old tree until a synth finishes the commit`,
        'run `clusterset synth` to finish it, then check again',
      );
    this.outputLock.assertFree();
  }
}

/** Finish or drop what a killed run left in and beside `out`, under the lock; nothing else. */
export function recoverOutput(out: string, fs?: FileSystemOps): void {
  const tx = new OutputTransaction(out, { check: false, ...(fs && { fs }) });
  tx.begin();
  tx.abandon();
}
