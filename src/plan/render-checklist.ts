import type { ChecklistItem } from './checklist';
import { printable } from '../diagnostics/printable';
import { markdownWithCode } from './markdown';

const WHEN: readonly ChecklistItem['when'][] = ['before merging', 'after merging'];

const itemsOf = (checklist: readonly ChecklistItem[] | undefined, cs: string) => (checklist ?? []).filter((i) => i.clusterSet === cs);

/** The checklist of one ClusterSet for a terminal: `[ ]` items by when, commands indented under them. */
export function checklistText(checklist: readonly ChecklistItem[] | undefined, cs: string): string[] {
  const items = itemsOf(checklist, cs);
  if (items.length === 0) return [];
  const lines = ['  checklist:'];
  for (const when of WHEN)
    for (const item of items.filter((i) => i.when === when)) {
      lines.push(`    [ ] ${when}: ${printable(item.text)}`);
      for (const c of item.commands ?? []) lines.push(`          ${printable(c)}`);
    }
  return lines;
}

/**
 * The checklist of one ClusterSet as GitHub task items after a blank line, each command block indented under its
 * item so that it renders inside it; the fence is longer than any backtick run in the commands.
 */
export function checklistMarkdown(checklist: readonly ChecklistItem[] | undefined, cs: string): string[] {
  const items = itemsOf(checklist, cs);
  if (items.length === 0) return [];
  const lines = ['', '**Checklist**', ''];
  for (const when of WHEN)
    for (const item of items.filter((i) => i.when === when)) {
      lines.push(`- [ ] _${when}:_ ${markdownWithCode(item.text)}`);
      const commands = item.commands ?? [];
      if (commands.length === 0) continue;
      const longest = Math.max(2, ...commands.flatMap((c) => (c.match(/`+/g) ?? []).map((r) => r.length)));
      const fence = '`'.repeat(longest + 1);
      // a command with a newline in a quoted value stays inside the item's block
      lines.push('', `  ${fence}sh`, ...commands.map((c) => `  ${c.replace(/\n/g, '\n  ')}`), `  ${fence}`, '');
    }
  return lines.at(-1) === '' ? lines.slice(0, -1) : lines;
}
