import * as nodeFs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { displayPath, OutputError } from './output-error';
import type { FileSystemOps } from './file-system-ops';

/** locks this process holds: a lock naming this process but none of these is a crashed transaction's */
const heldLocks = new Set<string>();

/**
 * The lock file beside an output (`.<out>.clusterset/lock`): it keeps two writers apart (the second
 * is refused, so no update is lost); a lock whose process is gone is taken over. `--check` never
 * takes it, only asks whether a live process holds it.
 */
export class OutputLock {
  private token: string | undefined;

  constructor(
    private readonly out: string,
    private readonly state: string,
    private readonly fs: FileSystemOps,
  ) {}

  take(): void {
    const file = join(this.state, 'lock');
    const token = `${process.pid} ${randomBytes(8).toString('hex')}`;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        nodeFs.writeFileSync(file, token, { flag: 'wx' });
        this.token = token;
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
      this.refuseIfHeld(holder);
      this.fs.rmSync(file, { recursive: false, force: true });
    }
    throw new OutputError(`could not lock ${displayPath(this.out)}: ${file} keeps coming back`);
  }

  release(): void {
    if (!this.token) return;
    heldLocks.delete(this.token);
    this.token = undefined;
    this.fs.rmSync(join(this.state, 'lock'), { recursive: false, force: true });
  }

  /** An injected fault: a dead process holds no lock; its lock file stays for the next run to take over. */
  drop(): void {
    if (this.token) heldLocks.delete(this.token);
  }

  /** For `--check`: another run writing is said, and nothing is taken. */
  assertFree(): void {
    let holder = '';
    try {
      holder = nodeFs.readFileSync(join(this.state, 'lock'), 'utf8');
    } catch {
      return;
    }
    this.refuseIfHeld(holder);
  }

  private refuseIfHeld(holder: string): void {
    if (isAlive(holder))
      throw new OutputError(`${displayPath(this.out)} is being written by another clusterset process (pid ${holder.split(' ')[0]!}); wait for it to finish`);
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
