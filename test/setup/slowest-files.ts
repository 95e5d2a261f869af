import type { Reporter, TestModule } from 'vitest/node';

/**
 * The ten slowest test files, printed at the end of a run of the suite (vitest.config.ts), so
 * that a file that grows is seen when it does. A file's time is what it held its worker for:
 * its setup files, its import and suite callbacks, its hooks and tests.
 */
export interface FileTime {
  /** relative to the repository */
  readonly file: string;
  readonly seconds: number;
}

export function fileTimes(modules: readonly TestModule[]): FileTime[] {
  return modules.map((m) => {
    const d = m.diagnostic();
    return { file: m.relativeModuleId, seconds: (d.setupDuration + d.collectDuration + d.duration) / 1000 };
  });
}

/** The `count` slowest files, slowest first (ties by path), under a line with the sum over every file. */
export function renderSlowest(times: readonly FileTime[], count = 10): string {
  const sorted = [...times].sort((a, b) => b.seconds - a.seconds || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const total = times.reduce((sum, t) => sum + t.seconds, 0);
  const shown = sorted.slice(0, count);
  const width = Math.max(...shown.map((t) => t.seconds.toFixed(1).length));
  return [
    `slowest ${shown.length} of ${times.length} test files (${total.toFixed(1)} s summed over the files):`,
    ...shown.map((t) => `  ${t.seconds.toFixed(1).padStart(width)} s  ${t.file}`),
  ].join('\n');
}

export default class SlowestFiles implements Reporter {
  onTestRunEnd(modules: readonly TestModule[]): void {
    // a run of one file (a developer's targeted run) has nothing to compare
    if (modules.length > 1) process.stdout.write(`\n${renderSlowest(fileTimes(modules))}\n\n`);
  }
}
