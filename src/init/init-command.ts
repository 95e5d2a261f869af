import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { errnoCode, fileSystemDiagnostic } from '../diagnostics/file-system';
import { render } from '../diagnostics/render';
import { gitHint } from './git-hint';
import { packageNameFor, SCAFFOLD_SCRIPTS, scaffoldRepository } from './scaffold';

/**
 * init: writes the scaffold into a directory, never over an existing file. An existing
 * package.json gains the dependency and the scripts it lacks; anything else that exists is kept.
 */
export function initCommand(
  dir: string,
  quiet: boolean,
  io: { stdout: { write(s: string): unknown }; stderr: { write(s: string): unknown } },
  version: string,
): number {
  const say = (line: string) => {
    if (!quiet) io.stdout.write(`${line}\n`);
  };
  const diagnostics: Diagnostic[] = [];
  const files = scaffoldRepository({ name: packageNameFor(basename(resolve(dir))), version });
  for (const file of files) {
    const path = join(dir, file.path);
    try {
      const existing = readIfPresent(path);
      if (existing === undefined) {
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, file.content, { flag: 'wx' });
        say(`created ${path}`);
      } else if (file.path === 'package.json') {
        const updated = withDependency(existing, version);
        if (updated === undefined)
          diagnostics.push(
            fileSystemDiagnostic(path, 'update', 'it is not a JSON object', 'fix package.json, or add antrea-clusterset to its devDependencies by hand'),
          );
        else if (updated === existing) say(`kept ${path} (it already depends on antrea-clusterset)`);
        else {
          writeFileSync(path, updated);
          say(`updated ${path} (antrea-clusterset and the clusterset scripts)`);
        }
      } else {
        say(`kept ${path} (it exists)`);
      }
    } catch (err) {
      diagnostics.push(fileSystemDiagnostic(errnoCode(err) ? ((err as NodeJS.ErrnoException).path ?? path) : path, 'write', err));
    }
  }
  if (diagnostics.length > 0) {
    io.stderr.write(render('text', diagnostics));
    return 1;
  }
  // a command line to paste, so the directory is quoted for the shell
  const cd = dir === '.' ? '' : `cd ${/^[\w./-]+$/.test(dir) ? dir : `'${dir.replaceAll("'", `'\\''`)}'`} && `;
  say(`\nnext: ${cd}npm install && npx clusterset validate && npx clusterset synth`);
  const git = gitHint(dir, cd);
  if (git) say(git);
  return 0;
}

function readIfPresent(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return undefined;
    throw err;
  }
}

/** package.json text with antrea-clusterset and the scripts added where absent; undefined if it is not an object. */
function withDependency(text: string, version: string): string | undefined {
  let pkg: unknown;
  try {
    pkg = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof pkg !== 'object' || pkg === null || Array.isArray(pkg)) return undefined;
  const p = pkg as { dependencies?: Record<string, string>; devDependencies?: Record<string, string>; scripts?: Record<string, string> };
  const has = p.dependencies?.['antrea-clusterset'] ?? p.devDependencies?.['antrea-clusterset'];
  const missingScripts = Object.entries(SCAFFOLD_SCRIPTS).filter(([name]) => p.scripts?.[name] === undefined);
  if (has && missingScripts.length === 0) return text;
  if (!has) p.devDependencies = { ...p.devDependencies, 'antrea-clusterset': `^${version}` };
  p.scripts = { ...p.scripts, ...Object.fromEntries(missingScripts) };
  return `${JSON.stringify(p, null, 2)}\n`;
}
