import type { CommandModule } from 'yargs';
import type { RunningObservation } from '../observe/observe.js';
import type { CommandResult } from './command-result.js';
import { OBSERVE_DECLARATION, type ObserveArgs } from './declarations/observe.js';

/**
 * The observe command: resolves its flags into one configuration and observes until SIGINT, SIGTERM or
 * --duration. The proxy, the judges and the reports load only when it is dispatched.
 */
export function observeCommand(result: CommandResult): CommandModule<object, ObserveArgs> {
  return {
    ...OBSERVE_DECLARATION,
    handler: async (args) => {
      const { resolveObserveConfig } = await import('../observe/config.js');
      const { startObservation } = await import('../observe/observe.js');
      const { createObserveConsole } = await import('../observe/observe-console.js');
      const { renderSummary } = await import('../report/console.js');
      const { shouldUseColor } = await import('../report/style.js');
      const { SecretMask } = await import('../report/secret-mask.js');
      const config = await resolveObserveConfig(args, { env: process.env, cwd: process.cwd() });
      const stop = new AbortController();
      const onSignal = (): void => stop.abort();
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      const mask = config.showSecrets ? SecretMask.none() : new SecretMask().addUrl(config.upstream);
      for (const secret of config.secrets) mask.add(secret);
      let running: RunningObservation | undefined;
      // Lines and events print above a live line on a terminal, as timestamped lines with summaries in a log.
      const printer = createObserveConsole(process.stderr, { color: shouldUseColor(process.stderr, process.env), mask, progress: () => running?.progress() });
      try {
        running = await startObservation(config, { signal: stop.signal, log: (line) => printer.message(line), onEvent: (event) => printer.event(event) });
        const outcome = await running.finished;
        printer.stop();
        const shown = config.showSecrets ? SecretMask.none() : mask.learnExchanges(outcome.transcript.exchanges);
        process.stdout.write(shown.text(renderSummary(outcome, { color: shouldUseColor(process.stdout, process.env) })));
        result.exitCode = outcome.exitCode;
      } finally {
        printer.stop();
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
    },
  };
}
