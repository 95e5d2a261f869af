import type { Command } from './command';
import { drift } from './drift';
import { help } from './help';
import { importDefinition } from './import';
import { init } from './init';
import { plan } from './plan';
import { schema } from './schema';
import { status } from './status';
import { synth } from './synth';
import { validate } from './validate';

/** The command table, in the order `clusterset --help` lists it: adding a command is a file and a row. */
export const COMMANDS: Readonly<Record<string, Command>> = { validate, synth, plan, drift, import: importDefinition, status, schema, init, help };
