import type { RunConfig } from '../config/run-config.js';
import { timeBudgetOf } from '../config/property-time-limit.js';
import { REDACTED } from '../core/redact.js';
import { maskedProgress, maskedStream } from '../report/masked-output.js';
import { createProgress } from '../report/progress.js';
import { runSecrets } from '../report/run-secrets.js';
import { SecretMask } from '../report/secret-mask.js';
import { shouldUseColor } from '../report/style.js';
import { exitCodeAfterOutputs, writeOutputs, type MissingOutput } from '../report/write-outputs.js';
import { driveAndJudge, type DriveConfig, type DriveRequest } from '../runner/drive-and-judge.js';
import type { RunOutcome } from '../runner/outcome.js';
import type { PropertyRunSettings } from '../runner/properties.js';
import { shellRestart, type Restart } from '../runner/restart-command.js';
import type { ExitCode } from '../core/verdict.js';
import type { KitIo } from './io.js';
import { printCommandEnd } from './command-end.js';

/** What a run ended with: its outcome, the exit code that tells it, the outputs it could not write, and its secrets. */
export interface RunResult {
  outcome: RunOutcome;
  /** The outcome's exit code, or 2 when an output asked for is missing. */
  exitCode: ExitCode;
  missingOutputs: MissingOutput[];
  /** The mask of everything the run shows: its secrets, or nothing with --show-secrets. */
  shown: SecretMask;
}

/**
 * Serves the reference when the configuration asks for it, plays the control plane, judges, and writes the
 * outputs asked for; with `io.console`, shows progress and the summary. The CLI and the library both run
 * through here, with a configuration resolved by `resolveRunConfig`.
 */
export async function run(config: RunConfig, io: KitIo): Promise<RunResult> {
  const reference = 'reference' in config.target ? await startReference(config, config.target.reference) : undefined;
  const url = reference?.url ?? ('url' in config.target ? config.target.url : '');
  // Every byte the run writes goes through one mask of the user's secrets; the bundle's is never lifted.
  const secrets = runSecrets(config, url);
  const shown = config.showSecrets ? SecretMask.none() : secrets;
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const progress = io.console
    ? maskedProgress(
        createProgress(maskedStream(stderr, shown), {
          color: shouldUseColor(stderr, process.env),
          startedAt: Date.now(),
          ...(config.timeLimit && { timeLimitMs: config.timeLimit.ms }),
          plan: {
            operationMs: config.maxOperationDuration.ms,
            properties: config.properties.names.length > 0,
            propertyChain: await propertyChain(config),
            burst: config.burst > 0,
            // The restart runs with the reference too: the kit restarts it in process.
            ...((config.restartCommand !== undefined || reference !== undefined) && { restartTimeoutMs: config.restartTimeout.ms }),
          },
          pollIntervalMs: config.pollInterval.ms,
        }),
        shown,
      )
    : undefined;
  const abort = new AbortController();
  const onSignal = (): void => abort.abort();
  if (io.console) {
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  }
  const signal = io.signal ? AbortSignal.any([abort.signal, io.signal]) : abort.signal;
  progress?.message(`provisioner-conformance: playing the control plane against ${url} (${config.changeSets.length} change sets, poll interval ${config.pollInterval.text})`);
  progress?.message(settingsLine(config));
  try {
    const restart: Restart | undefined =
      config.restartCommand !== undefined
        ? shellRestart(config.restartCommand)
        : reference
          ? { describe: 'the kit closes its in-process reference and opens it again on the same port and store', run: () => reference.restart() }
          : undefined;
    const request: DriveRequest = {
      ...driveConfigOf(config),
      url,
      timeBudget: timeBudgetOf(config),
      ...(config.properties.names.length > 0 && { properties: await propertySettings(config) }),
      ...(config.burst > 0 && { burst: { calls: config.burst, applies: config.burstApply } }),
      ...(restart && { restart: { with: restart, timeout: config.restartTimeout } }),
      ...(progress && { observer: progress, progress }),
      signal,
    };
    const outcome = await driveAndJudge(request);
    progress?.stop();
    secrets.learnExchanges(outcome.transcript.exchanges);
    // Every output is tried, whatever happens to one of them; the summary then says which are missing.
    const missingOutputs = await writeOutputs(config.outputs, outcome, { shown, secrets, bundleSettings: bundleSettings(outcome, Object.keys(config.headers)) });
    if (io.console) printCommandEnd(outcome, missingOutputs, shown, { stdout, stderr, ...(io.invocation && { invocation: io.invocation }) });
    return { outcome, exitCode: exitCodeAfterOutputs(outcome, missingOutputs), missingOutputs, shown };
  } finally {
    progress?.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await reference?.close();
  }
}

/** Operation-lengths a property case waits for one after another; loaded only when properties run, as they are. */
async function propertyChain(config: RunConfig): Promise<number> {
  if (config.properties.names.length === 0) return 0;
  const { DEFAULT_MAX_CHAIN } = await import('../../suites/properties/model/index.js');
  return DEFAULT_MAX_CHAIN;
}

/** The values of the configuration that driving and judging read. */
function driveConfigOf(config: RunConfig): DriveConfig {
  const { headers, changeSets, changesPointer, registration, maxOperationDuration, pollInterval, answerTimeout, planOnly, strict, showSecrets, only, skip, baseline, profile, configFile } = config;
  return {
    headers, changeSets, changesPointer, maxOperationDuration, pollInterval, answerTimeout, planOnly, strict, showSecrets, profile,
    ...(registration && { registration }),
    ...(only && { only }),
    ...(skip && { skip }),
    ...(baseline && { baseline }),
    ...(configFile !== undefined && { configFile }),
  };
}

async function startReference(config: RunConfig, reference: Extract<RunConfig['target'], { reference: unknown }>['reference']) {
  // The reference provisioner loads only for a run that uses it.
  const { startReferenceProvisioner } = await import('../reference/index.js');
  return startReferenceProvisioner({
    mode: reference.mode,
    ...(reference.fault !== undefined && { fault: reference.fault }),
    workMs: reference.work.ms,
    maxOperations: reference.maxOperations,
    ...(reference.storeFile !== undefined && { storeFile: reference.storeFile }),
    // The reference keeps operations for the longest wait the run holds it to (its registration's, by default).
    maxOperationDurationMs: config.maxOperationDuration.ms,
  });
}

/** The property suites the configuration names, and their cases; fast-check loads only for a run that has properties. */
async function propertySettings(config: RunConfig): Promise<PropertyRunSettings> {
  const { PROPERTIES } = await import('../../suites/properties/index.js');
  const { properties } = config;
  const suites = properties.names.map((name) => {
    const suite = PROPERTIES.find((known) => known.name === name);
    if (!suite) throw new Error(`the property ${name} of the catalog has no suite`);
    return suite;
  });
  return {
    suites,
    ...(properties.maxExamples !== undefined && { maxExamples: properties.maxExamples }),
    ...(properties.seed !== undefined && { seed: properties.seed }),
    ...(properties.path !== undefined && { path: properties.path }),
    allowApplyGenerated: properties.allowApplyGenerated,
  };
}

/** The settings the run resolved, printed before it starts: where each default came from is then never a guess. */
export function settingsLine(config: RunConfig): string {
  const { properties } = config;
  const cases = properties.maxExamples ?? 'the default number of';
  const within = properties.timeLimit === undefined ? 'what remains of the time limit' : `${properties.timeLimit.text}${properties.timeLimit.origin.source === 'derived' ? ' (derived from maxOperationDuration)' : ''}`;
  return [
    `profile ${config.profile}`,
    config.configFile !== undefined ? `config ${config.configFile}` : 'no config file',
    `poll interval ${config.pollInterval.text}`,
    `answer timeout ${config.answerTimeout.text}`,
    config.strict ? 'strict' : 'not strict',
    config.timeLimit !== undefined ? `time limit ${config.timeLimit.text}` : 'no time limit',
    properties.names.length > 0 ? `properties: ${cases} cases each within ${within}` : 'no properties',
  ].join(' · ');
}

/** The settings a run's bundle records: what the run resolved, with every header value removed. */
function bundleSettings(outcome: RunOutcome, headerNames: readonly string[]): Record<string, unknown> {
  return {
    url: outcome.target.url,
    ...outcome.settings,
    showSecrets: false,
    headers: Object.fromEntries(headerNames.map((name) => [name, REDACTED])),
  };
}
