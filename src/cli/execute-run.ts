import { resolveRunOptions } from '../config/run-options.js';
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
import { PROFILES } from '../config/profiles.js';
import { DEFAULT_PROPERTY_TIME_LIMIT, resolvePropertyOptions } from '../config/property-options.js';
import type { PropertySuite } from '../../suites/properties/property.js';
import type { RunArgs } from './run-flags.js';

/** The reference provisioner's registration, used by `--reference` unless another one is given. */
const REFERENCE_REGISTRATION = ['fixtures', 'registrations', 'reference.json'];

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

/** Resolves the flags, serves the reference when asked, plays the control plane, writes the reports asked for. */
export async function executeRun(args: RunArgs, io: RunIo): Promise<RunOutcome> {
  if (args.reference && args.url !== undefined) {
    throw new UsageError('--reference', 'cannot be combined with --url: --reference serves its own provisioner');
  }
  if (!args.reference && args.referenceFault !== undefined) throw new UsageError('--reference-fault', 'goes with --reference');
  // The reference provisioner, and the property suites with fast-check, load only for a run that uses them.
  const referenceModule = args.reference ? await import('../reference/index.js') : undefined;
  if (args.referenceFault !== undefined && referenceModule && !referenceModule.isFaultName(args.referenceFault)) {
    throw new UsageError('--reference-fault', `unknown fault "${args.referenceFault}" (known: ${referenceModule.FAULTS.map((f) => f.name).join(', ')})`);
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
  const known: readonly PropertySuite[] = args.properties ? (await import('../../suites/properties/index.js')).PROPERTIES : [];
  const properties = resolvePropertyOptions(args, known, PROFILES[args.profile].maxExamples);
  const reference = referenceModule
    ? await referenceModule.startReferenceProvisioner({
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
  // The registration is copied into the transcript and the bundle: a credential under a secret-looking key is hidden there too.
  if (options.registration?.json.ok) secrets.learnJson(options.registration.json.value);
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
