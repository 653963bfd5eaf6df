import type { Argv, CommandModule } from 'yargs';
import { DEFAULT_BURST, DEFAULT_RESTART_TIMEOUT, resolveRunOptions, type RunFlags } from '../config/run-options.js';
import { shellRestart } from '../runner/restart-command.js';
import { UsageError } from '../config/usage-error.js';
import { bundledPath } from '../config/package-paths.js';
import { parsePositiveDuration } from '../config/duration.js';
import { runConformance } from '../runner/run.js';
import { createProgress } from '../report/progress.js';
import { renderSummary } from '../report/console.js';
import { shouldUseColor } from '../report/style.js';
import { writeJsonReport } from '../report/write-json.js';
import { writeJunitReport } from '../report/write-junit.js';
import { writeTranscriptFile } from '../transcript/transcript-file.js';
import { redactExchanges } from '../report/redact-transcript.js';
import { FAULTS, isFaultName, startReferenceProvisioner } from '../reference/index.js';
import type { CommandResult } from './command-result.js';
import { withPropertyFlags } from './property-flags.js';
import { resolvePropertyOptions, type PropertyFlags } from '../config/property-options.js';
import { PROPERTIES } from '../../suites/properties/index.js';

interface RunArgs extends RunFlags, PropertyFlags {
  report?: string;
  junit?: string;
  transcript?: string;
  reference: boolean;
  referenceMode: 'sync' | 'async' | 'mixed';
  referenceFault?: string;
  referenceWork: string;
}

/** The reference provisioner's registration, used by `--reference` unless another one is given. */
const REFERENCE_REGISTRATION = ['fixtures', 'registrations', 'reference.json'];

export function runCommand(result: CommandResult): CommandModule<object, RunArgs> {
  return {
    command: 'run',
    describe: 'Play the control plane against a provisioner and judge every answer',
    builder: (yargs: Argv<object>) =>
      withPropertyFlags(yargs
        .option('url', { type: 'string', requiresArg: true, describe: 'Base URL of the provisioner', defaultDescription: '$PROVISIONER_URL' })
        .option('reference', { type: 'boolean', default: false, describe: 'Run against the bundled reference provisioner, served in-process on a free loopback port' })
        .option('reference-mode', { choices: ['sync', 'async', 'mixed'] as const, default: 'mixed' as const, describe: 'With --reference: how the reference answers' })
        .option('reference-fault', { type: 'string', requiresArg: true, describe: 'With --reference: break one rule on purpose (see serve --list-faults)' })
        .option('reference-work', { type: 'string', requiresArg: true, default: 'PT0.5S', describe: 'With --reference: how long accepted work takes' })
        .option('change-set', { type: 'string', requiresArg: true, array: true, describe: 'Change-set file sent to plan and apply (repeatable; default: the bundled ones)' })
        .option('registration', { type: 'string', requiresArg: true, describe: 'The provisioner\'s registration document (JSON), judged and used for maxOperationDuration' })
        .option('max-operation-duration', { type: 'string', requiresArg: true, describe: 'Longest wait for an operation, ISO 8601 (default: the registration\'s, else PT30M)' })
        .option('poll-interval', { type: 'string', requiresArg: true, default: 'PT1S', describe: 'Time between reads of an operation (the control plane uses PT10S)' })
        .option('answer-timeout', { type: 'string', requiresArg: true, default: 'PT10S', describe: 'How fast plan, apply and reads must answer' })
        .option('header', { type: 'string', requiresArg: true, array: true, describe: 'Extra request header "Name: value" (repeatable, e.g. for auth)' })
        .option('changes-path', { type: 'string', requiresArg: true, default: '/changes', describe: 'JSON pointer to the changes array in a change set' })
        .option('plan-only', { type: 'boolean', default: false, describe: 'Never call apply' })
        .option('strict', { type: 'boolean', default: false, describe: 'Fail on SHOULD rules that do not hold' })
        .option('only', { type: 'string', requiresArg: true, array: true, describe: 'Judge only these rule ids (repeatable or comma-separated)' })
        .option('skip', { type: 'string', requiresArg: true, array: true, describe: 'Do not judge these rule ids' })
        .option('report', { type: 'string', requiresArg: true, describe: 'Write the JSON report to this file' })
        .option('junit', { type: 'string', requiresArg: true, describe: 'Write the results as JUnit XML to this file, for CI servers' })
        .option('transcript', { type: 'string', requiresArg: true, describe: 'Write every exchange, with the context it was judged in, to this file (JSON)' })
        .option('show-secrets', { type: 'boolean', default: false, describe: 'Show secret-looking values and headers in reports' })
        .option('burst', { type: 'number', requiresArg: true, default: DEFAULT_BURST, describe: 'Plan calls sent at once to judge capacity.burst (0: no burst)' })
        .option('burst-apply', { type: 'boolean', default: false, describe: 'Make every second call of the burst an apply (such applies ignore the lock per application and environment)' })
        .option('restart-command', { type: 'string', requiresArg: true, describe: 'Shell command that restarts the provisioner, run while operations are in progress, to judge durability.survives-restart' })
        .option('restart-timeout', { type: 'string', requiresArg: true, default: DEFAULT_RESTART_TIMEOUT, describe: 'Longest the restart command may take (ISO 8601)' })) as unknown as Argv<RunArgs>,
    handler: async (args) => {
      result.exitCode = await executeRun(args);
    },
  };
}

async function executeRun(args: RunArgs): Promise<number> {
  if (args.reference && args.url !== undefined) {
    throw new UsageError('--reference', 'cannot be combined with --url: --reference serves its own provisioner');
  }
  if (!args.reference && args.referenceFault !== undefined) throw new UsageError('--reference-fault', 'goes with --reference');
  if (args.referenceFault !== undefined && !isFaultName(args.referenceFault)) {
    throw new UsageError('--reference-fault', `unknown fault "${args.referenceFault}" (known: ${FAULTS.map((f) => f.name).join(', ')})`);
  }
  const referenceWork = parsePositiveDuration(args.referenceWork);
  if (!referenceWork.ok) throw new UsageError('--reference-work', referenceWork.error);
  const targetUrl = args.reference ? undefined : args.url ?? (process.env.PROVISIONER_URL || undefined);
  if (!args.reference && targetUrl === undefined) throw new UsageError('--url', 'missing: give --url URL, set PROVISIONER_URL, or use --reference');

  const options = await resolveRunOptions({
    ...args,
    url: targetUrl,
    registration: args.registration ?? (args.reference ? bundledPath(...REFERENCE_REGISTRATION) : undefined),
  });
  const properties = resolvePropertyOptions(args, PROPERTIES);
  const reference = args.reference
    ? await startReferenceProvisioner({ mode: args.referenceMode, fault: args.referenceFault, workMs: referenceWork.ms })
    : undefined;
  const url = reference?.url ?? options.url!;
  const color = shouldUseColor(process.stdout, process.env);
  const progress = createProgress(process.stderr, { color: shouldUseColor(process.stderr, process.env), startedAt: Date.now() });
  const abort = new AbortController();
  const onSignal = (): void => abort.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  progress.message(`provisioner-conformance: playing the control plane against ${url} (${options.changeSets.length} change sets, poll interval ${args.pollInterval})`);
  try {
    const restart = options.restartCommand === undefined ? undefined : shellRestart(options.restartCommand);
    const outcome = await runConformance({ ...options, properties, url, restart, observer: progress, signal: abort.signal });
    progress.stop();
    process.stdout.write(renderSummary(outcome, { color, invocation: process.argv.slice(2) }));
    if (args.report !== undefined) await writeJsonReport(args.report, outcome);
    if (args.junit !== undefined) await writeJunitReport(args.junit, outcome);
    if (args.transcript !== undefined) {
      const { exchanges, events } = outcome.transcript;
      await writeTranscriptFile(args.transcript, args.showSecrets ? exchanges : redactExchanges(exchanges), events, outcome.context);
    }
    return outcome.exitCode;
  } finally {
    progress.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await reference?.close();
  }
}
