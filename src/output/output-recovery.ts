import * as nodeFs from 'node:fs';
import { createHash } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { MANIFEST } from './manifest';
import { SimulatedCrash, type FileSystemOps } from './file-system-ops';
import { displayPath, OutputError } from './output-error';
import { pruneEmpty, writeAtomically } from './output-tree';

// The commit protocol's far side (output-transaction.ts): finishing a recorded commit, dropping an
// unrecorded one, and the spare tree's record.

/** What the spare tree is: the output whose manifest.json has this hash, except at these paths. */
export interface SpareRecord {
  readonly base: string;
  readonly differs: readonly string[];
}

/** An older version's journal: deletions, then staged files moved in one by one. */
interface LegacyJournal {
  readonly deletes: readonly string[];
  readonly moves: readonly string[];
}

/**
 * From the commit record on, idempotent: output → old, next → output, old → spare, the spare's
 * record, then the commit record goes. A failure (not a kill) before the output is the next tree
 * puts the old one back.
 */
export function finishCommit(out: string, state: string, record: SpareRecord, fs: FileSystemOps): void {
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
export function recover(out: string, state: string, fs: FileSystemOps): void {
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

export function readSpareRecord(state: string): SpareRecord | undefined {
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
export function manifestHash(dir: string): string | undefined {
  try {
    return createHash('sha256')
      .update(nodeFs.readFileSync(join(dir, MANIFEST)))
      .digest('hex');
  } catch {
    return undefined;
  }
}
