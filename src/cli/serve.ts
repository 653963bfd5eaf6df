import type { CommandModule } from 'yargs';
import { parseMaxOperationDuration, parsePositiveDuration } from '../core/duration.js';
import { UsageError } from '../errors.js';
import { FAULTS, isFaultName, startReferenceProvisioner } from '../reference/index.js';
import type { CommandResult } from './command-result.js';
import { SERVE_DECLARATION, type ServeArgs } from './declarations/serve.js';

export function serveCommand(result: CommandResult): CommandModule<object, ServeArgs> {
  return {
    ...SERVE_DECLARATION,
    handler: async (args) => {
      if (args.listFaults) {
        const width = Math.max(...FAULTS.map((fault) => fault.name.length));
        const breaksWidth = Math.max(...FAULTS.map((fault) => fault.breaks.join(', ').length));
        for (const fault of FAULTS) process.stdout.write(`${fault.name.padEnd(width)}  ${fault.breaks.join(', ').padEnd(breaksWidth)}  ${fault.summary}\n`);
        result.exitCode = 0;
        return;
      }
      if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65535) throw new UsageError('--port', `"${args.port}" is not a port number (0 to 65535)`);
      const work = parsePositiveDuration(args.work);
      if (!work.ok) throw new UsageError('--work', work.error);
      if (args.fault !== undefined && !isFaultName(args.fault)) {
        throw new UsageError('--fault', `unknown fault "${args.fault}" (see --list-faults)`);
      }
      if (!Number.isInteger(args.maxOperations) || args.maxOperations < 0) throw new UsageError('--max-operations', `"${args.maxOperations}" is not a whole number of at least 0`);
      const longestWait = parseMaxOperationDuration(args.maxOperationDuration);
      if (!longestWait.ok) throw new UsageError('--max-operation-duration', longestWait.error);
      const server = await startReferenceProvisioner({
        host: args.host,
        port: args.port,
        mode: args.mode,
        workMs: work.ms,
        fault: args.fault,
        maxOperations: args.maxOperations,
        maxOperationDurationMs: longestWait.ms,
        storeFile: args.store,
      }).catch((error: unknown) => {
        throw usageErrorFor(error, args.store);
      });
      process.stdout.write(`${server.url}\n`);
      process.stderr.write(`reference provisioner (${args.mode}${args.fault ? `, fault ${args.fault}` : ''}${args.store ? `, store ${args.store}` : ''}) listening; Ctrl-C stops it\n`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await server.close();
      result.exitCode = 0;
    },
  };
}

/** A port in use or a store that cannot be read or written is the user's to fix, not a crash of the kit. */
function usageErrorFor(error: unknown, store: string | undefined): unknown {
  if (!(error instanceof Error)) return error;
  if (error.message.startsWith('listen ')) return new UsageError('--port', error.message);
  const fileError = (error as NodeJS.ErrnoException).code !== undefined;
  if (store !== undefined && (fileError || error.message.startsWith(store))) return new UsageError('--store', error.message);
  return error;
}
