import { accessSync, constants, mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { join } from 'node:path';

// Scratch space for the suite's temporary trees. Many tests write whole output trees (synths,
// npm installs, crash drills); on this project's CI disks creating a small file costs about a
// millisecond, in memory a fiftieth of that. The behaviour under test (renames, hard links,
// locks, permissions) is the same on tmpfs. Where the machine has no writable tmpfs with 1 GiB
// free, or CLUSTERSET_TEST_TMPDIR names another place, the tests use that or the system's default.
const TMPFS_MAGIC = 0x01021994;
// the suite peaks near 130 MB (the package test installs the tarball's dependencies); a
// container's default /dev/shm is 64 MB, so a small tmpfs is passed over
const ENOUGH = 1024 ** 3;

function memoryScratch(): string | undefined {
  try {
    accessSync('/dev/shm', constants.W_OK);
    const fs = statfsSync('/dev/shm');
    return fs.type === TMPFS_MAGIC && fs.bavail * fs.bsize >= ENOUGH ? '/dev/shm' : undefined;
  } catch {
    return undefined;
  }
}

export default function setup(): () => void {
  const base = process.env.CLUSTERSET_TEST_TMPDIR ?? memoryScratch();
  if (!base) return () => undefined;
  // one directory per run, so a killed run leaves one thing to remove and runs never meet
  const dir = mkdtempSync(join(base, 'clusterset-test-'));
  const previous = process.env.TMPDIR;
  // read by os.tmpdir() in the test workers and every process they start
  process.env.TMPDIR = dir;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(dir, { recursive: true, force: true });
  };
}
