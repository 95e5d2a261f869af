import { describe, expect, test } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics/diagnostic';
import { scanOutputFiles, ScannedFiles } from '../../src/secrets/scan-secrets';

// The output scan remembers each file's findings by its bytes (ScannedFiles): what it reports for
// a file must not depend on whether, or in which batch, the file was scanned before.

// eslint-disable-next-line @typescript-eslint/no-unnecessary-template-expression -- split so secret scanners skip the fixture
const GITHUB = `ghp_${'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'}`;
const JWT = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW06c2VydmljZWFjY291bnQifQ.c2lnbmF0dXJl';
const FILES = [
  { path: 'east/ConfigMap.plain.yaml', content: 'kind: ConfigMap\ndata:\n  a: b\n' },
  // the object's name is the secret: the path in the message is redacted
  { path: `east/Secret.${GITHUB}.yaml`, content: `kind: Secret\nmetadata:\n  name: ${GITHUB}\n` },
  { path: 'east/ConfigMap.two.yaml', content: `data:\n  jwt: ${JWT}\n  again: ${GITHUB}\n` },
  { path: 'west/ConfigMap.plain.yaml', content: 'kind: ConfigMap\ndata:\n  a: b\n' },
  { path: 'west/ConfigMap.end.yaml', content: `data: ${JWT}` },
];

/** The diagnostics of `batches` scanned one after the other by one record, each batch as the pipeline yields it. */
async function scanned(batches: readonly (typeof FILES)[], record = new ScannedFiles()): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  for (const files of batches) await scanOutputFiles('d.yaml', files, out, record);
  return out;
}

describe('the output scan remembers files by their bytes', () => {
  test.each([
    ['one batch', [FILES]],
    ['a file each', FILES.map((f) => [f])],
    ['two batches, the second first', [FILES.slice(3), FILES.slice(0, 3)]],
    ['everything twice', [FILES, FILES]],
  ])('%s: each file reports what a scan of it alone reports, in file order', async (_, batches) => {
    const expected: Diagnostic[] = [];
    for (const files of batches) for (const f of files) expected.push(...(await scanned([[f]])));
    expect(await scanned(batches)).toEqual(expected);
  });

  test('what is reported: the detector, the file with its secret redacted, every finding of every file', async () => {
    expect((await scanned([FILES])).map((d) => d.message)).toEqual([
      'east/Secret.<redacted>.yaml would hold a secret (github); nothing is written',
      'east/ConfigMap.two.yaml would hold a secret (jwt); nothing is written',
      'east/ConfigMap.two.yaml would hold a secret (github); nothing is written',
      'west/ConfigMap.end.yaml would hold a secret (jwt); nothing is written',
    ]);
  });

  test('a file scanned before is not scanned again, and the record keeps at most its limit', async () => {
    const record = new ScannedFiles(2);
    await scanned([FILES.slice(0, 2)], record);
    expect(record.begin(FILES.slice(0, 2)).pending).toEqual([]);
    // the same bytes under another path: scanned already
    expect(record.begin([FILES[3]!]).pending.length).toBe(0);
    await scanned([[FILES[2]!]], record);
    // the oldest went first
    expect(record.begin(FILES.slice(0, 3)).pending.map((f) => f.content)).toEqual([FILES[0]!.content]);
  });

  test('a batch larger than the record still reports every finding of every file', async () => {
    expect(await scanned([FILES], new ScannedFiles(1))).toEqual(await scanned([FILES]));
  });
});
