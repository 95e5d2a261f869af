import * as nodeFs from 'node:fs';

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

/** where the kill drills' hook stops this process (see `pauseAt`); read once, as a run never sets it */
const PAUSE_AT = process.env.CLUSTERSET_TEST_PAUSE_AT;
/** the changes this process has made through `realFs`, counted only for the hook */
let changes = 0;
/** A change through `realFs`: the kill drills' hook may stop the process before it. */
function change(): void {
  if (PAUSE_AT !== undefined) pauseAt(`change-${changes++}`);
}

export const realFs: FileSystemOps = {
  writeFileSync: (p, d) => {
    change();
    nodeFs.writeFileSync(p, d);
  },
  renameSync: (a, b) => {
    change();
    nodeFs.renameSync(a, b);
  },
  rmSync: (p, o) => {
    change();
    nodeFs.rmSync(p, o);
  },
  mkdirSync: (p, o) => (change(), void nodeFs.mkdirSync(p, o)),
  linkSync: (a, b) => {
    change();
    nodeFs.linkSync(a, b);
  },
  accessSync: (p, m) => nodeFs.accessSync(p, m),
  at: pauseAt,
};

/**
 * The kill drills' hook (test/output/kill-9.test.ts): with CLUSTERSET_TEST_PAUSE_AT naming a
 * step of the commit, or `change-<n>` (the n-th change of the process, counted from 0 as the
 * drills' in-process faults count them, before it is made), the writer says so on stderr and
 * waits there until it is killed. A kill at a named point, not after a time: the drills hold
 * however loaded the machine is.
 */
function pauseAt(point: string): void {
  if (PAUSE_AT !== point) return;
  nodeFs.writeSync(2, `paused at ${point}\n`);
  const wait = new Int32Array(new SharedArrayBuffer(4));
  for (;;) Atomics.wait(wait, 0, 0, 1000);
}

/** Thrown by an injected fault: the transaction stops as if the process had been killed. */
export class SimulatedCrash extends Error {}
