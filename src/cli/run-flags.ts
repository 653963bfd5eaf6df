import type { Argv } from 'yargs';
import { DEFAULTS, RUN_DEFAULTS } from '../config/defaults.js';
import { DEFAULT_PROFILE, PROFILE_NAMES, PROFILES } from '../config/profiles.js';
import { CONFIG_FILE_NAMES } from '../config/config-file.js';
import { RUN_OPTION_NAMES, type RunOptions } from '../config/run-options.js';
import { withPropertyFlags } from './property-flags.js';

/** The run command's flags as yargs hands them over: only those given, under their long names in camelCase (and kebab-case). */
export type RunArgs = RunOptions & Record<string, unknown>;

// Whole numbers are taken as text: yargs would turn `--burst lots` into NaN, and the check could not quote it.

/** The options a command line gave, nothing else: the resolver puts them over the config file, the profile and the defaults. */
export function givenOptions(args: RunArgs): RunOptions {
  const given: Record<string, unknown> = {};
  for (const name of RUN_OPTION_NAMES) if (args[name] !== undefined) given[name] = args[name];
  return given as RunOptions;
}

/** A default as `run --help` shows it, with the profiles that change it. */
function shown(value: string | number | boolean, key: string): string {
  const byProfile = PROFILE_NAMES.flatMap((name) => (PROFILES[name].values[key] !== undefined ? [`${name} ${String(PROFILES[name].values[key])}`] : []));
  return byProfile.length > 0 ? `${String(value)} (profiles: ${byProfile.join(', ')})` : String(value);
}

/**
 * The run command's flags; `run --help` shows each default and the profiles that change it. What it lists:
 * nothing here loads the runner, the client, the reports or the property suites.
 */
export function withRunFlags(yargs: Argv<object>): Argv<RunArgs> {
  // No flag has a yargs default: what was not given is left to the config file, the profile and the built-in defaults.
  return withPropertyFlags(yargs
    .option('profile', { choices: PROFILE_NAMES, defaultDescription: DEFAULT_PROFILE, describe: 'quick: an author\'s loop; ci: bounded defaults; certify: the control plane\'s poll interval, every rule, strict, registration required' })
    .option('config', { type: 'string', requiresArg: true, describe: 'Config file (JSON or YAML) whose keys are these long option names', defaultDescription: CONFIG_FILE_NAMES.join(' | ') })
    .option('url', { type: 'string', requiresArg: true, describe: 'Base URL of the provisioner', defaultDescription: '$PROVISIONER_URL' })
    .option('reference', { type: 'boolean', defaultDescription: shown(RUN_DEFAULTS.reference, 'reference'), describe: 'Run against the bundled reference provisioner, served in-process on a free loopback port' })
    .option('reference-mode', { choices: ['sync', 'async', 'mixed'] as const, defaultDescription: shown(RUN_DEFAULTS.referenceMode, 'reference-mode'), describe: 'With --reference: how the reference answers' })
    .option('reference-fault', { type: 'string', requiresArg: true, describe: 'With --reference: break one rule on purpose (see serve --list-faults)' })
    .option('reference-work', { type: 'string', requiresArg: true, defaultDescription: shown(RUN_DEFAULTS.referenceWork, 'reference-work'), describe: 'With --reference: how long accepted work takes' })
    .option('reference-max-operations', { type: 'string', requiresArg: true, describe: `With --reference: most operations in progress at once (default ${DEFAULTS.referenceMaxOperations}); when full, a call runs at once and answers 200` })
    .option('reference-store', { type: 'string', requiresArg: true, describe: 'With --reference: keep its operations in this file (default: in memory; either way they survive a restart of the reference)' })
    .option('change-set', { type: 'string', requiresArg: true, array: true, describe: 'Change-set file sent to plan and apply (repeatable; default: the bundled ones)' })
    .option('registration', { type: 'string', requiresArg: true, describe: 'The provisioner\'s registration document (JSON), judged and used for maxOperationDuration' })
    .option('max-operation-duration', { type: 'string', requiresArg: true, describe: `Longest wait for an operation, ISO 8601 (default: the registration's, else ${DEFAULTS.maxOperationDuration})` })
    .option('poll-interval', { type: 'string', requiresArg: true, defaultDescription: shown(RUN_DEFAULTS.pollInterval, 'poll-interval'), describe: `Time between reads of an operation (the control plane uses ${DEFAULTS.controlPlanePollInterval})` })
    .option('answer-timeout', { type: 'string', requiresArg: true, defaultDescription: shown(RUN_DEFAULTS.answerTimeout, 'answer-timeout'), describe: 'How fast plan, apply and reads must answer' })
    .option('header', { type: 'string', requiresArg: true, array: true, describe: 'Extra request header "Name: value" (repeatable, e.g. for auth)' })
    .option('changes-path', { type: 'string', requiresArg: true, defaultDescription: shown(RUN_DEFAULTS.changesPath, 'changes-path'), describe: 'JSON pointer to the changes array in a change set' })
    .option('plan-only', { type: 'boolean', defaultDescription: shown(RUN_DEFAULTS.planOnly, 'plan-only'), describe: 'Never call apply' })
    .option('strict', { type: 'boolean', defaultDescription: shown(RUN_DEFAULTS.strict, 'strict'), describe: 'Fail on SHOULD rules that do not hold' })
    .option('only', { type: 'string', requiresArg: true, array: true, describe: 'Judge only these rule ids (repeatable or comma-separated)' })
    .option('skip', { type: 'string', requiresArg: true, array: true, describe: 'Do not judge these rule ids' })
    .option('report', { type: 'string', requiresArg: true, describe: 'Write the JSON report to this file' })
    .option('junit', { type: 'string', requiresArg: true, describe: 'Write the results as JUnit XML to this file, for CI servers' })
    .option('html', { type: 'string', requiresArg: true, describe: 'Write a self-contained HTML report (timeline, rules, evidence) to this file' })
    .option('baseline', { type: 'string', requiresArg: true, describe: 'Known failures (JSON or YAML: rule, reason, expires) reported waived, never pass, until they expire' })
    .option('bundle', { type: 'string', requiresArg: true, describe: 'Write the evidence to this folder: JSON, HTML and JUnit reports, the transcript and registration, the settings, and a manifest of sha256 hashes (secrets masked); check it later with verify DIR' })
    .option('transcript', { type: 'string', requiresArg: true, describe: 'Write every exchange, with the context it was judged in, to this file (JSON)' })
    .option('show-secrets', { type: 'boolean', defaultDescription: shown(RUN_DEFAULTS.showSecrets, 'show-secrets'), describe: 'Show secret-looking values and headers in reports' })
    .option('burst', { type: 'string', requiresArg: true, defaultDescription: shown(RUN_DEFAULTS.burst, 'burst'), describe: 'Plan calls sent at once to judge capacity.burst (0: no burst)' })
    .option('burst-apply', { type: 'boolean', defaultDescription: shown(RUN_DEFAULTS.burstApply, 'burst-apply'), describe: 'Make every second call of the burst an apply (such applies ignore the lock per application and environment)' })
    .option('restart-command', { type: 'string', requiresArg: true, describe: 'Shell command that restarts the provisioner, run while operations are in progress, to judge durability.survives-restart (with --reference the kit restarts its own reference)' })
    .option('restart-timeout', { type: 'string', requiresArg: true, defaultDescription: shown(RUN_DEFAULTS.restartTimeout, 'restart-timeout'), describe: 'Longest the restart command may take (ISO 8601)' })
    .option('time-limit', {
      type: 'string',
      requiresArg: true,
      describe: 'Budget of the whole run (ISO 8601): past it every suite stops driving and the run, judged on what happened, is incomplete (exit 1) unless a rule failed; properties without --property-time-limit share what remains',
      defaultDescription: shown('none', 'time-limit'),
    })) as unknown as Argv<RunArgs>;
}
