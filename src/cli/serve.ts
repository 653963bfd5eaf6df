import type { CommandModule } from 'yargs';
import { resolveServeConfig } from '../config/serve-config.js';
import { UsageError } from '../errors.js';
import { startReferenceProvisioner } from '../api/reference.js';
import type { CommandResult } from './command-result.js';
import { SERVE_DECLARATION, type ServeArgs } from './declarations/serve.js';
import { faultListing } from './fault-list.js';

/** The serve command: resolves its flags, serves the reference provisioner until SIGINT or SIGTERM, or lists the faults. */
export function serveCommand(result: CommandResult): CommandModule<object, ServeArgs> {
  return {
    ...SERVE_DECLARATION,
    handler: async (args) => {
      if (args.listFaults) {
        process.stdout.write(faultListing());
        result.exitCode = 0;
        return;
      }
      const config = resolveServeConfig(args);
      const server = await startReferenceProvisioner(config).catch((error: unknown) => {
        throw usageErrorFor(error, config.storeFile);
      });
      process.stdout.write(`${server.url}\n`);
      const fault = config.fault === undefined ? '' : `, fault ${config.fault}`;
      const store = config.storeFile === undefined ? '' : `, store ${config.storeFile}`;
      process.stderr.write(`reference provisioner (${config.mode}${fault}${store}) listening; Ctrl-C stops it\n`);
      if (config.faultNeedsLine !== undefined) process.stderr.write(`${config.faultNeedsLine}\n`);
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
