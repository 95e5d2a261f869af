import { performance } from 'node:perf_hooks';
import { secretLintProfiler } from '@secretlint/profiler';
import { expect, test } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics/diagnostic';
import { scanOutputFiles } from '../../src/secrets/scan-secrets';

/**
 * secretlint's profiler keeps every performance mark its core makes and searches them at each
 * new one: over the thousand scans of a fleet synth that was quadratic time and unbounded memory.
 * Scanning must leave nothing behind on the performance timeline, and still find secrets.
 */
test('scans leave no marks on the performance timeline and nothing in the profiler, and still detect', async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-template-expression -- split so secret scanners skip the fixture
  const files = [{ path: 'a.yaml', content: `kind: ConfigMap\ndata:\n  key: ghp_${'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'}\n` }];
  const before = performance.getEntriesByType('mark').length;
  let found = 0;
  for (let i = 0; i < 200; i++) {
    const diagnostics: Diagnostic[] = [];
    // other bytes each time: a file scanned before is not scanned again (ScannedFiles)
    await scanOutputFiles('d.yaml', [{ ...files[0]!, content: `${files[0]!.content}# ${i}\n` }], diagnostics);
    found += diagnostics.length;
  }
  await new Promise((resolve) => setImmediate(resolve));
  expect(found).toBe(200);
  expect(performance.getEntriesByType('mark').length - before).toBe(0);
  expect(await secretLintProfiler.getEntries()).toEqual([]);
});
