import { printable, printableJson } from '../diagnostics/printable';
import type { Answer, DirectionAnswer } from './evaluate-connection';

/** One direction in words: who decides, and why. */
export function directionWords(name: 'egress' | 'ingress', d: DirectionAnswer): string {
  const where = d.cluster ? `${name} in ${d.cluster}` : name;
  const why = d.reason ? ` (${d.reason})` : '';
  if (d.verdict === ('no-path' as string)) return `${where}: not evaluated`;
  if (d.rule === 'default') return `${where}: ${d.verdict}, no rule matches: what no rule decides is allowed${why}`;
  if (d.rule === 'kubernetes-networkpolicy')
    return `${where}: ${d.verdict} by the Kubernetes NetworkPolicies of the Namespace${d.verdict === 'dropped' ? ' (the Pod is isolated and no rule allows it)' : ''}${why}`;
  if (d.verdict === 'indeterminate') return `${where}: indeterminate, rules of equal priority disagree: ${d.rule}${why}`;
  if (d.verdict === 'uncertain') return `${where}: uncertain at ${d.rule}${why}`;
  return `${where}: ${d.verdict} by ${d.rule}${why}`;
}

/** The answers as text, each explained in both directions, in the manner of netpol-analyzer's --explain. */
export function answersText(answers: readonly Answer[]): string {
  const lines: string[] = [];
  for (const a of answers) {
    lines.push(`${a.from} → ${a.to} ${a.port}: ${a.verdict}${a.backend ? ` (through backend ${a.backend})` : ''}`);
    if (a.verdict === 'no-path') lines.push(`  no path: ${a.reason ?? ''}`);
    else {
      lines.push(`  ${directionWords('egress', a.egress)}`, `  ${directionWords('ingress', a.ingress)}`);
      if (a.verdict === 'uncertain' && a.reason && a.egress.reason !== a.reason && a.ingress.reason !== a.reason) lines.push(`  uncertain: ${a.reason}`);
    }
  }
  return `${lines.map(printable).join('\n')}\n`;
}

export const answersJson = (answers: readonly Answer[]): string => `${printableJson(JSON.stringify(answers, null, 2))}\n`;
