import type { CommandModule } from 'yargs';
import { parseMaxOperationDuration, parsePositiveDuration } from '../core/duration.js';
import { UsageError } from '../errors.js';
import { isFaultName, startReferenceProvisioner } from '../reference/index.js';
import type { CommandResult } from './command-result.js';
import { SERVE_DECLARATION, SERVE_DEFAULTS, type ServeArgs } from './declarations/serve.js';
import { faultListing } from './fault-list.js';
import { applyServeFaultNeeds, type ServeSettings } from './serve-fault-needs.js';

export function serveCommand(result: CommandResult): CommandModule<object, ServeArgs> {
  return {
    ...SERVE_DECLARATION,
    handler: async (args) => {
      if (args.listFaults) {
        process.stdout.write(faultListing());
        result.exitCode = 0;
        return;
      }
      if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65535) throw new UsageError('--port', `"${args.port}" is not a port number (0 to 65535)`);
      if (args.fault !== undefined && !isFaultName(args.fault)) {
        throw new UsageError('--fault', `unknown fault "${args.fault}" (see --list-faults)`);
      }
      const given: ServeSettings = {
        ...(args.mode !== undefined && { mode: args.mode }),
        ...(args.work !== undefined && { work: args.work }),
        ...(args.maxOperations !== undefined && { maxOperations: args.maxOperations }),
        ...(args.maxOperationDuration !== undefined && { maxOperationDuration: args.maxOperationDuration }),
      };
      const needs = args.fault === undefined ? undefined : applyServeFaultNeeds(args.fault, given);
      const settings = { ...SERVE_DEFAULTS, ...(needs?.settings ?? given) };
      const { mode } = settings;
      const work = parsePositiveDuration(settings.work);
      if (!work.ok) throw new UsageError('--work', work.error);
      if (!Number.isInteger(settings.maxOperations) || settings.maxOperations < 0) throw new UsageError('--max-operations', `"${settings.maxOperations}" is not a whole number of at least 0`);
      const longestWait = parseMaxOperationDuration(settings.maxOperationDuration);
      if (!longestWait.ok) throw new UsageError('--max-operation-duration', longestWait.error);
      const server = await startReferenceProvisioner({
        host: args.host,
        port: args.port,
        mode,
        workMs: work.ms,
        fault: args.fault,
        maxOperations: settings.maxOperations,
        maxOperationDurationMs: longestWait.ms,
        storeFile: args.store,
      }).catch((error: unknown) => {
        throw usageErrorFor(error, args.store);
      });
      process.stdout.write(`${server.url}\n`);
      process.stderr.write(`reference provisioner (${mode}${args.fault ? `, fault ${args.fault}` : ''}${args.store ? `, store ${args.store}` : ''}) listening; Ctrl-C stops it\n`);
      if (needs !== undefined) process.stderr.write(`${needs.line}\n`);
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
