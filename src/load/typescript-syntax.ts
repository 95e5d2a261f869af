import type { Diagnostic } from '../diagnostics/diagnostic';
import { LineIndex } from './source-file';
import type { Ts } from './typescript-package';

/**
 * Parses a TypeScript definition before it is evaluated, so that a syntax error is reported at
 * its line and column with the parser's whole message (evaluation would only say that the
 * module failed, at the top of the file). False when the file does not parse.
 */
export function checkTypeScriptSyntax(ts: Ts, file: string, text: string, diagnostics: Diagnostic[]): boolean {
  const { diagnostics: problems = [] } = ts.transpileModule(text, {
    fileName: file,
    reportDiagnostics: true,
    compilerOptions: { target: ts.ScriptTarget.ESNext },
  });
  const lines = new LineIndex(text);
  const syntax = problems.filter((d) => d.file && d.start !== undefined && d.category === ts.DiagnosticCategory.Error);
  for (const d of syntax) {
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    diagnostics.push({
      code: 'typescript-syntax',
      severity: 'error',
      message: message.charAt(0).toLowerCase() + message.slice(1).replace(/\.$/, ''),
      file,
      path: [],
      ...lines.span(d.start!, d.start! + (d.length ?? 0)),
      hint: `TS${d.code}; \`npx tsc --noEmit\` reports the same`,
    });
  }
  return syntax.length === 0;
}
