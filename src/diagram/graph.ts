import { mermaidLabel, mermaidText, mermaidTextSize } from './mermaid';

/** How one part of the diagram is marked: its class and whether it is added, removed or changed. */
export interface DiagramMark {
  /** a class of `DiagramOptions.classes`, e.g. an impact class */
  readonly cls: string;
  readonly state: 'added' | 'removed' | 'changed';
}

export interface DiagramClass {
  readonly name: string;
  /** Mermaid classDef style, e.g. `fill:#fdd,stroke:#c00` (ours, never from a definition) */
  readonly style: string;
  readonly legend: string;
}

export interface Diagram {
  readonly text: string;
  /** as Mermaid counts them */
  readonly chars: number;
  readonly edges: number;
  /** members grouped (or, in a plan, unchanged ones counted) rather than drawn one by one */
  readonly folded: boolean;
}

/** Statements in order, with the classes of marked nodes collected at the end. */
export class Graph {
  private readonly lines: string[] = ['flowchart LR'];
  private readonly byClass = new Map<string, string[]>();
  private depth = 1;
  private edges = 0;

  constructor(private readonly classes: readonly DiagramClass[]) {}

  node(id: string, lines: readonly string[], mark?: DiagramMark): void {
    this.lines.push(`${'  '.repeat(this.depth)}${id}[${mermaidLabel(lines, 100)}]`);
    if (mark) {
      this.mark(id, mark.cls);
      if (mark.state !== 'changed') this.mark(id, mark.state);
    }
  }

  open(id: string, title: readonly string[]): void {
    this.lines.push(`${'  '.repeat(this.depth)}subgraph ${id}[${mermaidLabel(title, 100)}]`);
    this.depth++;
  }

  close(): void {
    this.depth--;
    this.lines.push(`${'  '.repeat(this.depth)}end`);
  }

  /** A link that only places nodes (it counts against maxEdges all the same). */
  invisible(from: string, to: string): void {
    this.lines.push(`${'  '.repeat(this.depth)}${from} ~~~ ${to}`);
    this.edges++;
  }

  edge(from: string, to: string, label: string, dotted = false): void {
    this.lines.push(`  ${from} ${dotted ? '-.->' : '-->'}|"${mermaidText(label)}"| ${to}`);
    this.edges++;
  }

  private mark(id: string, cls: string): void {
    const ids = this.byClass.get(cls);
    if (ids) ids.push(id);
    else this.byClass.set(cls, [id]);
  }

  render(folded: boolean): Diagram {
    const out = [...this.lines];
    const used = [...this.classes.filter((c) => this.byClass.has(c.name)), ...STATE_CLASSES.filter((c) => this.byClass.has(c.name))];
    if (this.byClass.size > 0) {
      // the legend: one node per class of the diagram
      out.push('  subgraph legend["legend"]');
      for (const [i, c] of used.entries()) out.push(`    k${i}[${mermaidLabel([c.legend])}]`);
      out.push('  end');
      for (const [i, c] of used.entries()) this.mark(`k${i}`, c.name);
      for (const c of used) out.push(`  classDef ${c.name} ${c.style}`);
      for (const c of used) out.push(`  class ${this.byClass.get(c.name)!.join(',')} ${c.name}`);
    }
    const text = `${out.join('\n')}\n`;
    return { text, chars: mermaidTextSize(text), edges: this.edges, folded };
  }
}

/** How added and removed parts look, whatever their class. */
const STATE_CLASSES: readonly DiagramClass[] = [
  { name: 'added', style: 'stroke-width:4px', legend: 'added: thick border' },
  { name: 'removed', style: 'stroke-dasharray:6 4', legend: 'removed: dashed border' },
];

/** The README's section: the diagram of the ClusterSet as declared. */
