import type { Argv } from 'yargs';
import type { RunFlags } from '../config/run-options.js';
import { DEFAULT_BURST, DEFAULT_RESTART_TIMEOUT } from '../config/run-defaults.js';
import { resolveRunLayers, type RunLayers } from '../config/run-layers.js';
import { DEFAULT_PROFILE, PROFILE_NAMES, type ProfileName } from '../config/profiles.js';
import { CONFIG_FILE_NAMES } from '../config/config-file.js';
import type { PropertyFlags } from '../config/property-options.js';
import { withPropertyFlags } from './property-flags.js';

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

/**
 * The run command's flags, with their defaults from the profile and the config file. What `run --help` lists:
 * nothing here loads the runner, the client, the reports or the property suites.
 */
export function withRunFlags(yargs: Argv<object>, argv: readonly string[]): Argv<RunArgs> {
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
}

/** Puts the profile's values over the built-in defaults and the config file over both; flags stay on top. */
function withLayers<T>(yargs: Argv<T>, layers: RunLayers): Argv<T> {
  let layered = yargs;
  for (const [key, value] of Object.entries(layers.profile.values)) layered = layered.default(key, value);
  if (!layers.config) return layered;
  // The file found in the working folder is the run's config file as much as one given with --config.
  return layered.default('config', layers.config.file).config(layers.config.values);
}
