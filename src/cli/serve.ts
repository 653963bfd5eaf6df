import type { Argv, CommandModule } from 'yargs';
import { parsePositiveDuration } from '../core/duration.js';
import { UsageError } from '../errors.js';
import { FAULTS, isFaultName, startReferenceProvisioner } from '../reference/index.js';
import type { CommandResult } from './command-result.js';

interface ServeArgs {
  port: number;
  host: string;
  mode: 'sync' | 'async' | 'mixed';
  work: string;
  fault?: string;
  listFaults: boolean;
}

export function serveCommand(result: CommandResult): CommandModule<object, ServeArgs> {
  return {
    command: 'serve',
    describe: 'Serve the reference provisioner (correct by default, or with one fault)',
    builder: (yargs: Argv<object>) =>
      yargs
        .option('port', { type: 'number', requiresArg: true, default: 0, describe: 'Port to listen on (0: a free one)' })
        .option('host', { type: 'string', requiresArg: true, default: '127.0.0.1', describe: 'Address to bind' })
        .option('mode', { choices: ['sync', 'async', 'mixed'] as const, default: 'mixed' as const, describe: 'sync: always 200; async: always 202; mixed: plan 200, apply 202' })
        .option('work', { type: 'string', requiresArg: true, default: 'PT2S', describe: 'How long accepted work takes (ISO 8601)' })
        .option('fault', { type: 'string', requiresArg: true, describe: 'Break one rule on purpose (see --list-faults)' })
        .option('list-faults', { type: 'boolean', default: false, describe: 'List the faults and the rule each one breaks' }) as unknown as Argv<ServeArgs>,
    handler: async (args) => {
      if (args.listFaults) {
        const width = Math.max(...FAULTS.map((fault) => fault.name.length));
        for (const fault of FAULTS) process.stdout.write(`${fault.name.padEnd(width)}  ${fault.breaks.padEnd(38)}  ${fault.summary}\n`);
        result.exitCode = 0;
        return;
      }
      if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65535) throw new UsageError('--port', `"${args.port}" is not a port number (0 to 65535)`);
      const work = parsePositiveDuration(args.work);
      if (!work.ok) throw new UsageError('--work', work.error);
      if (args.fault !== undefined && !isFaultName(args.fault)) {
        throw new UsageError('--fault', `unknown fault "${args.fault}" (see --list-faults)`);
      }
      const server = await startReferenceProvisioner({ host: args.host, port: args.port, mode: args.mode, workMs: work.ms, fault: args.fault });
      process.stdout.write(`${server.url}\n`);
      process.stderr.write(`reference provisioner (${args.mode}${args.fault ? `, fault ${args.fault}` : ''}) listening; Ctrl-C stops it\n`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await server.close();
      result.exitCode = 0;
    },
  };
}
