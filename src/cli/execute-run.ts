import type { Argv, CommandModule } from 'yargs';
import { DEFAULT_BURST, DEFAULT_RESTART_TIMEOUT, resolveRunOptions, type RunFlags } from '../config/run-options.js';
import { shellRestart } from '../runner/restart-command.js';
import { UsageError } from '../errors.js';
import { bundledPath } from '../core/package.js';
import { parsePositiveDuration } from '../core/duration.js';
import { runConformance } from '../runner/run.js';
import { createProgress, type ProgressStream } from '../report/progress.js';
import { renderSummary } from '../report/console.js';
import { shouldUseColor } from '../report/style.js';
import { writeJsonReport } from '../report/write-json.js';
import { writeJunitReport } from '../report/write-junit.js';
import { writeHtmlReport } from '../report/write-html.js';
import { writeBundle } from '../report/bundle.js';
import { loadBaseline } from '../config/baseline.js';
import { REDACTED } from '../report/redact.js';
import type { RunOutcome } from '../runner/outcome.js';
import { writeTranscript } from '../report/write-transcript.js';
import { SecretMask } from '../report/secret-mask.js';
import { maskedProgress, maskedStream } from '../report/masked-output.js';
import { FAULTS, isFaultName, startReferenceProvisioner } from '../reference/index.js';
import type { CommandResult } from './command-result.js';
import { RUN_HEAD } from './declarations/run.js';
import { resolveRunLayers, type RunLayers } from '../config/run-layers.js';
import { DEFAULT_PROFILE, PROFILE_NAMES, PROFILES, type ProfileName } from '../config/profiles.js';
import { CONFIG_FILE_NAMES } from '../config/config-file.js';
import { withPropertyFlags } from './property-flags.js';
import { DEFAULT_PROPERTY_TIME_LIMIT, resolvePropertyOptions, type PropertyFlags } from '../config/property-options.js';
import { PROPERTIES } from '../../suites/properties/index.js';

export interface RunArgs extends RunFlags, PropertyFlags {
  profile: ProfileName;
  config?: string;
  report?: string;
  junit?: string;
  html?: string;
  baseline?: string;
  bundle?: string;
  transcript?: string;
  reference: boolean;
  referenceMode: 'sync' | 'async' | 'mixed';
  referenceFault?: string;
  referenceWork: string;
  referenceMaxOperations?: number;
  referenceStore?: string;
}

/** The reference provisioner's registration, used by `--reference` unless another one is given. */
const REFERENCE_REGISTRATION = ['fixtures', 'registrations', 'reference.json'];

export function runCommand(result: CommandResult, argv: readonly string[] = []): CommandModule<object, RunArgs> {
  return {
    ...RUN_HEAD,
    builder: (yargs: Argv<object>) => {
      // Only a run reads a config file: `--help` and the other commands never touch it.
      const layers = resolveRunLayers(argv, process.env, process.cwd());
      return withLayers(withPropertyFlags(yargs
        .option('profile', { choices: PROFILE_NAMES, default: DEFAULT_PROFILE, describe: 'quick: an author\'s loop; ci: bounded defaults; certify: the control plane\'s poll interval, every rule, strict, registration required' })
        .option('config', { type: 'string', requiresArg: true, describe: 'Config file (JSON or YAML) whose keys are these long option names', defaultDescription: CONFIG_FILE_NAMES.join(' | ') })
        .option('url', { type: 'string', requiresArg: true, describe: 'Base URL of the provisioner', defaultDescription: '$PROVISIONER_URL' })
        .option('reference', { type: 'boolean', default: false, describe: 'Run against the bundled reference provisioner, served in-process on a free loopback port' })
        .option('reference-mode', { choices: ['sync', 'async', 'mixed'] as const, default: 'mixed' as const, describe: 'With --reference: how the reference answers' })
        .option('reference-fault', { type: 'string', requiresArg: true, describe: 'With --reference: break one rule on purpose (see serve --list-faults)' })
        .option('reference-work', { type: 'string', requiresArg: true, default: 'PT0.5S', describe: 'With --reference: how long accepted work takes' })
        .option('reference-max-operations', { type: 'number', requiresArg: true, describe: 'With --reference: most operations in progress at once (default 100); when full, a call runs at once and answers 200' })
        .option('reference-store', { type: 'string', requiresArg: true, describe: 'With --reference: keep its operations in this file (default: in memory; either way they survive a restart of the reference)' })
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
        .option('html', { type: 'string', requiresArg: true, describe: 'Write a self-contained HTML report (timeline, rules, evidence) to this file' })
        .option('baseline', { type: 'string', requiresArg: true, describe: 'Known failures (JSON or YAML: rule, reason, expires) reported waived, never pass, until they expire' })
        .option('bundle', { type: 'string', requiresArg: true, describe: 'Write the evidence to this folder: JSON, HTML and JUnit reports, the transcript and registration, the settings, and a manifest of sha256 hashes (secrets masked); check it later with verify DIR' })
        .option('transcript', { type: 'string', requiresArg: true, describe: 'Write every exchange, with the context it was judged in, to this file (JSON)' })
        .option('show-secrets', { type: 'boolean', default: false, describe: 'Show secret-looking values and headers in reports' })
        .option('burst', { type: 'number', requiresArg: true, default: DEFAULT_BURST, describe: 'Plan calls sent at once to judge capacity.burst (0: no burst)' })
        .option('burst-apply', { type: 'boolean', default: false, describe: 'Make every second call of the burst an apply (such applies ignore the lock per application and environment)' })
        .option('restart-command', { type: 'string', requiresArg: true, describe: 'Shell command that restarts the provisioner, run while operations are in progress, to judge durability.survives-restart (with --reference the kit restarts its own reference)' })
        .option('restart-timeout', { type: 'string', requiresArg: true, default: DEFAULT_RESTART_TIMEOUT, describe: 'Longest the restart command may take (ISO 8601)' })
        .option('time-limit', {
          type: 'string',
          requiresArg: true,
          describe: 'Budget of the whole run (ISO 8601): past it every suite stops driving and the run, judged on what happened, is incomplete (exit 1) unless a rule failed; properties without --property-time-limit share what remains',
          defaultDescription: 'none (profiles: quick PT2M, ci PT15M)',
        })), layers) as unknown as Argv<RunArgs>;
    },
    handler: async (args) => {
      result.exitCode = (await executeRun(args, CONSOLE)).exitCode;
    },
  };
}

/** How a run talks to the world: the CLI's terminal, or nothing at all for a library caller. */
export interface RunIo {
  /** Live progress on stderr, the summary on stdout, Ctrl-C stops the run. */
  console: boolean;
  /** Stops the run (a library caller's own stop); the CLI's comes from SIGINT and SIGTERM. */
  signal?: AbortSignal;
  /** Where the console's summary and progress go; process.stdout and process.stderr unless given (tests). */
  stdout?: ProgressStream;
  stderr?: ProgressStream;
}

const CONSOLE: RunIo = { console: true };

/** Resolves the flags, serves the reference when asked, plays the control plane, writes the reports asked for. */
export async function executeRun(args: RunArgs, io: RunIo): Promise<RunOutcome> {
  if (args.reference && args.url !== undefined) {
    throw new UsageError('--reference', 'cannot be combined with --url: --reference serves its own provisioner');
  }
  if (!args.reference && args.referenceFault !== undefined) throw new UsageError('--reference-fault', 'goes with --reference');
  if (args.referenceFault !== undefined && !isFaultName(args.referenceFault)) {
    throw new UsageError('--reference-fault', `unknown fault "${args.referenceFault}" (known: ${FAULTS.map((f) => f.name).join(', ')})`);
  }
  for (const [flag, value] of [['--reference-max-operations', args.referenceMaxOperations], ['--reference-store', args.referenceStore]] as const) {
    if (!args.reference && value !== undefined) throw new UsageError(flag, 'goes with --reference');
  }
  const max = args.referenceMaxOperations;
  if (max !== undefined && (!Number.isInteger(max) || max < 0)) throw new UsageError('--reference-max-operations', `"${max}" is not a whole number of at least 0`);
  const referenceWork = parsePositiveDuration(args.referenceWork);
  if (!referenceWork.ok) throw new UsageError('--reference-work', referenceWork.error);
  const targetUrl = args.reference ? undefined : args.url ?? (process.env.PROVISIONER_URL || undefined);
  if (!args.reference && targetUrl === undefined) throw new UsageError('--url', 'missing: give --url URL, set PROVISIONER_URL, or use --reference');

  if (args.profile === 'certify') refuseWeakenedCertification(args);
  const baseline = args.baseline === undefined ? undefined : loadBaseline(args.baseline);
  const options = await resolveRunOptions({
    ...args,
    url: targetUrl,
    registration: args.registration ?? (args.reference ? bundledPath(...REFERENCE_REGISTRATION) : undefined),
  });
  const properties = resolvePropertyOptions(args, PROPERTIES, PROFILES[args.profile].maxExamples);
  const reference = args.reference
    ? await startReferenceProvisioner({
        mode: args.referenceMode,
        fault: args.referenceFault,
        workMs: referenceWork.ms,
        maxOperations: args.referenceMaxOperations,
        storeFile: args.referenceStore,
        // The reference keeps operations for the longest wait the run holds it to (its registration's, by default).
        maxOperationDurationMs: options.maxOperationDuration.ms,
      })
    : undefined;
  const url = reference?.url ?? options.url!;
  if (args.profile === 'certify' && options.registration === undefined) {
    await reference?.close();
    throw new UsageError('--registration', 'the certify profile needs the registration document: certification judges it');
  }
  // Every byte the run writes goes through one mask of the user's secrets; the bundle's is never lifted.
  const secrets = new SecretMask().addHeaders(options.headers).addUrl(url);
  const shown = args.showSecrets ? SecretMask.none() : secrets;
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const progress = io.console
    ? maskedProgress(
        createProgress(maskedStream(stderr, shown), {
          color: shouldUseColor(stderr, process.env),
          startedAt: Date.now(),
          ...(options.timeLimit && { timeLimitMs: options.timeLimit.ms }),
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
  progress?.message(`provisioner-conformance: playing the control plane against ${url} (${options.changeSets.length} change sets, poll interval ${args.pollInterval})`);
  progress?.message(settingsLine(args));
  try {
    const restart =
      options.restartCommand !== undefined
        ? shellRestart(options.restartCommand)
        : reference
          ? { describe: 'the kit closes its in-process reference and opens it again on the same port and store', run: () => reference.restart() }
          : undefined;
    const outcome = await runConformance({
      ...options,
      properties,
      url,
      restart,
      profile: args.profile,
      ...(baseline && { baseline }),
      ...(args.config !== undefined && { configFile: args.config }),
      ...(progress && { observer: progress, progress }),
      signal,
    });
    progress?.stop();
    secrets.learnExchanges(outcome.transcript.exchanges);
    if (io.console) stdout.write(shown.text(renderSummary(outcome, { color: shouldUseColor(stdout, process.env), invocation: process.argv.slice(2) })));
    if (args.report !== undefined) await writeJsonReport(args.report, outcome, shown);
    if (args.junit !== undefined) await writeJunitReport(args.junit, outcome, shown);
    if (args.html !== undefined) await writeHtmlReport(args.html, outcome, shown);
    if (args.bundle !== undefined) await writeBundle(args.bundle, { outcome, settings: bundleSettings(url, options.headers, outcome), mask: secrets });
    if (args.transcript !== undefined) await writeTranscript(args.transcript, outcome, shown);
    return outcome;
  } finally {
    progress?.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await reference?.close();
  }
}

/** The settings a bundle records: what the run resolved, with every header value removed. */
function bundleSettings(url: string, headers: Record<string, string>, outcome: RunOutcome): Record<string, unknown> {
  return {
    url,
    ...outcome.settings,
    showSecrets: false,
    headers: Object.fromEntries(Object.keys(headers).map((name) => [name, REDACTED])),
  };
}

/** Puts the profile's values over the built-in defaults and the config file over both; flags stay on top. */
function withLayers<T>(yargs: Argv<T>, layers: RunLayers): Argv<T> {
  let layered = yargs;
  for (const [key, value] of Object.entries(layers.profile.values)) layered = layered.default(key, value);
  if (!layers.config) return layered;
  // The file found in the working folder is the run's config file as much as one given with --config.
  return layered.default('config', layers.config.file).config(layers.config.values);
}

/** Certification judges every rule, strictly: the flags that would make it say less are refused. */
function refuseWeakenedCertification(args: RunArgs): void {
  if (args.only !== undefined) throw new UsageError('--only', 'the certify profile judges every rule');
  if (args.skip !== undefined) throw new UsageError('--skip', 'the certify profile judges every rule');
  if (!args.strict) throw new UsageError('--strict', 'the certify profile is always strict: a SHOULD rule that does not hold fails it');
  if (args.planOnly) throw new UsageError('--plan-only', 'the certify profile applies: idempotency and every apply rule are part of it');
  if (args.baseline !== undefined) throw new UsageError('--baseline', 'the certify profile waives nothing: every failure counts');
}

/** The settings the run resolved, printed before it starts: where each default came from is then never a guess. */
function settingsLine(args: RunArgs): string {
  const cases = args.maxExamples ?? PROFILES[args.profile].maxExamples ?? 'the default number of';
  const within = args.propertyTimeLimit ?? (args.timeLimit !== undefined ? 'what remains of the time limit' : DEFAULT_PROPERTY_TIME_LIMIT);
  const properties = args.properties ? `properties: ${cases} cases each within ${within}` : 'no properties';
  return [
    `profile ${args.profile}`,
    args.config !== undefined ? `config ${args.config}` : 'no config file',
    `poll interval ${args.pollInterval}`,
    `answer timeout ${args.answerTimeout}`,
    args.strict ? 'strict' : 'not strict',
    args.timeLimit !== undefined ? `time limit ${args.timeLimit}` : 'no time limit',
    properties,
  ].join(' · ');
}
