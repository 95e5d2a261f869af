import { readFileSync } from 'node:fs';

/**
 * The compiler's name and version, part of every bundle's input hash: a new version rebuilds
 * every bundle on its first synth. Read from package.json beside the sources or the build.
 */
export const COMPILER: string = (() => {
  for (const candidate of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(candidate, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'antrea-clusterset' && pkg.version) return `${pkg.name}@${pkg.version}`;
    } catch {
      // not there: try the next place
    }
  }
  throw new Error('package.json of antrea-clusterset not found beside the compiler');
})();
