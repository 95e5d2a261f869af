import { parseArgs } from 'node:util';
import { UsageError, type Args, type Command } from './command';

/**
 * `--name value`, `--name=value`, `-x`, `--` (the rest are paths), split by `node:util` `parseArgs`;
 * the mistakes are judged here, in order, each in our words (parseArgs' strict mode would throw
 * its own): an unknown option, a short group such as `-qh`, an option given twice, a value for a
 * boolean, a string option without a value or whose value starts with `-`.
 */
export function parseCommandLine(name: string, c: Command, argv: readonly string[]): Args {
  const { tokens } = parseArgs({
    args: [...argv],
    options: Object.fromEntries(Object.entries(c.options).map(([n, o]) => [n, { type: o.type, ...(o.short && { short: o.short }) }])),
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const positionals: string[] = [];
  const options: Record<string, string | boolean | string[]> = {};
  for (const [i, token] of tokens.entries()) {
    if (token.kind === 'positional') positionals.push(token.value);
    if (token.kind !== 'option') continue;
    // parseArgs splits a short group into one token per letter, all at the group's index
    const grouped = tokens[i - 1]?.index === token.index || tokens[i + 1]?.index === token.index;
    const spec = !grouped && Object.hasOwn(c.options, token.name) ? c.options[token.name] : undefined;
    if (!spec) throw new UsageError(`${name} has no option ${grouped ? argv[token.index]! : token.rawName}`);
    const key = token.name;
    if (Object.hasOwn(options, key) && !spec.repeatable) throw new UsageError(`--${key} is given twice`);
    if (spec.type === 'boolean') {
      if (token.inlineValue) throw new UsageError(`--${key} takes no value`);
      options[key] = true;
    } else {
      const value = token.value;
      if (value === undefined || (!token.inlineValue && value.startsWith('-'))) throw new UsageError(`--${key} needs a value (${spec.value ?? 'VALUE'})`);
      options[key] = spec.repeatable ? [...((options[key] as string[] | undefined) ?? []), value] : value;
    }
  }
  return { positionals, options };
}
