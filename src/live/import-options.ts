import { dumpCommand } from './dump-kinds';

// what `clusterset help import` shows; kept apart from the command so the CLI starts light

/** The dump commands (docs/adopt.md). */
export const DUMP_HELP = `dumps: one file per cluster, from one read-only command (a leader's dump holds its Secrets,
tokens included: write it where only you can read it, never into git, and delete it after):
  leader:     ${dumpCommand('leader')}
  member:     ${dumpCommand('member')}
  dual-role:  ${dumpCommand('dual-role')}
a member with an ExternalSecret or a SealedSecret for its token: add externalsecrets.external-secrets.io or sealedsecrets.bitnami.com`;

/** The options of `clusterset import`. */
export const IMPORT_OPTIONS = {
  out: { type: 'string', value: 'FILE', description: 'write the definition here (default: stdout); an existing file is never overwritten' },
  context: {
    type: 'string',
    value: 'NAME',
    repeatable: true,
    description: 'read a cluster through this kubeconfig context instead of a dump (read-only; repeatable)',
  },
  'token-source': {
    type: 'string',
    value: 'manual',
    description: 'members whose token no ExternalSecret or SealedSecret provides keep the Secret copied by hand (default: written as <unset>)',
  },
  help: { type: 'boolean', short: 'h', description: 'show help for the command' },
} as const;
