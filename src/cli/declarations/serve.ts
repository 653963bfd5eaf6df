import type { Argv } from 'yargs';
import type { Declaration } from './declaration.js';
import { DEFAULTS } from '../../config/defaults.js';
import type { ServeOptions } from '../../config/serve-config.js';

/** The serve command's flags: its options, and the listing of the faults. No yargs defaults for what a fault may need: serve tells a flag given from one left out. */
export type ServeArgs = ServeOptions & { listFaults: boolean };

export const SERVE_DECLARATION: Declaration<ServeArgs> = {
  command: 'serve',
  describe: 'Serve the reference provisioner (correct by default, or with one fault)',
  builder: (yargs: Argv<object>) =>
    yargs
      .option('port', { type: 'string', requiresArg: true, default: String(DEFAULTS.servePort), describe: 'Port to listen on (0: a free one)' })
      .option('host', { type: 'string', requiresArg: true, default: DEFAULTS.serveHost, describe: 'Address to bind' })
      .option('mode', { choices: ['sync', 'async', 'mixed'] as const, defaultDescription: DEFAULTS.referenceMode, describe: 'sync: always 200; async: always 202; mixed: plan 200, apply 202' })
      .option('work', { type: 'string', requiresArg: true, defaultDescription: DEFAULTS.serveWork, describe: 'How long accepted work takes (ISO 8601)' })
      .option('fault', { type: 'string', requiresArg: true, describe: 'Break one rule on purpose (see --list-faults); applies the --mode, --work and --max-operations it needs' })
      .option('max-operations', { type: 'string', requiresArg: true, defaultDescription: String(DEFAULTS.referenceMaxOperations), describe: 'Most operations in progress at once; when that many are, a call runs at once and answers 200' })
      .option('max-operation-duration', {
        type: 'string',
        requiresArg: true,
        defaultDescription: DEFAULTS.maxOperationDuration,
        describe: 'The registered longest wait: an operation is forgotten this long after its final answer became readable',
      })
      .option('store', { type: 'string', requiresArg: true, describe: 'Keep operations in this file, so that a restarted serve (same --port and --store) still knows them' })
      .option('list-faults', { type: 'boolean', default: false, describe: 'List the faults: the rules each one breaks and the flags it needs' }) as unknown as Argv<ServeArgs>,
};
