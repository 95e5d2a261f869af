import { HELP, type Command } from './command';

/** `clusterset schema`: the JSON Schema of the definition format, for editors. */
export const schema: Command = {
  summary: 'print the JSON Schema of the definition format',
  arguments: '',
  options: { help: HELP },
  run: async (_, { io }) => {
    const { definitionJsonSchema } = await import('../model/json-schema');
    io.stdout.write(`${JSON.stringify(definitionJsonSchema(), null, 2)}\n`);
    return 0;
  },
};
