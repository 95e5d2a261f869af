#!/usr/bin/env node
// npm run lint: typescript-eslint's rules (eslint.config.mjs) over src, bench and test, on a
// TypeScript program built here from tsconfig.json. With `--types` (npm run check) it also reports
// that program's type errors, as `tsc --noEmit` (npm run typecheck) does: the type-aware rules
// need the program anyway, so the check's types and lint cost one type check, not two. Editors
// keep eslint.config.mjs's project service. Exit 1 on a lint error (or, with --types, a type error).
import { ESLint } from 'eslint';
import ts from 'typescript';

const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => report([d]) };
const config = ts.getParsedCommandLineOfConfigFile('tsconfig.json', {}, host);
if (!config) process.exit(1);
const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, configFileParsingDiagnostics: config.errors });
const typeErrors = process.argv.includes('--types') ? ts.getPreEmitDiagnostics(program) : [];
report(typeErrors);

const eslint = new ESLint({ overrideConfig: { languageOptions: { parserOptions: { programs: [program], projectService: false } } } });
const results = await eslint.lintFiles(['src', 'bench', 'test']);
const text = await (await eslint.loadFormatter('stylish')).format(results);
if (text) process.stdout.write(text);
process.exitCode = typeErrors.length > 0 || results.some((r) => r.errorCount > 0) ? 1 : 0;

function report(diagnostics) {
  if (diagnostics.length === 0) return;
  // colour and source context on a terminal, as tsc does; plain lines when captured (npm test)
  const format = process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
  process.stdout.write(format(diagnostics, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => process.cwd(), getNewLine: () => '\n' }));
}
