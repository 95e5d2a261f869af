// `npm run bench [-- name…]`: runs every bench/*.bench.ts (or those whose name contains an argument)
import { readdirSync } from 'node:fs';

const dir = new URL('.', import.meta.url);
const filters = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts') && (filters.length === 0 || filters.some((x) => f.includes(x))))
  .sort();
if (files.length === 0) throw new Error(`no benchmark matches ${filters.join(', ')}`);

for (const file of files) {
  console.log(`\n# ${file}`);
  const bench = (await import(new URL(file, dir).href)) as { default: () => Promise<void> | void };
  await bench.default();
}
