import { HELP, UsageError, type Command } from './command';
import { commandNamed, commandUsage, usage } from './usage';

/** `clusterset help [command]`: the usage of the CLI or of one command. */
export const help: Command = {
  summary: 'show help for a command',
  arguments: '[command]',
  options: { help: HELP },
  run: ({ positionals }, { io, commands }) => {
    const [name, ...extra] = positionals;
    if (extra.length > 0) throw new UsageError(`help takes one command, not ${positionals.length}`, 'help');
    if (name === undefined) {
      io.stdout.write(`${usage(commands)}\n`);
      return 0;
    }
    io.stdout.write(`${commandUsage(name, commandNamed(commands, name))}\n`);
    return 0;
  },
};
