import type { Duration } from '../core/duration.js';
import type { DurationSetting, RegistrationDocument } from '../core/judge-context.js';
import type { PropertyTimeLimit } from '../core/property-time-limit.js';
import { didYouMean } from '../core/closest-name.js';
import { bundledPath } from '../core/package.js';
import { UsageError } from '../errors.js';
import { loadBaseline, type Baseline } from './baseline.js';
import { bundledChangeSetFiles, loadChangeSets, type LoadedChangeSet } from './change-sets.js';
import { findConfigFile, loadConfigFile } from './config-file.js';
import { parseHeaders } from './headers.js';
import { checkOutputPaths, type CommandOutputs } from './output-paths.js';
import { DEFAULT_PROFILE, isProfileName, PROFILE_NAMES, PROFILES, type ProfileName } from './profiles.js';
import { PROPERTY_CATALOG } from './property-catalog.js';
import { resolvePropertyTimeLimit } from './property-time-limit.js';
import { loadRegistration } from './registration.js';
import { DEFAULTS, RUN_DEFAULTS } from './defaults.js';
import { changesPathField, durationField, maxOperationDurationField, ruleIdsField, urlField, wholeNumberField } from './fields.js';
import { camelOf, flagOf, isRunOptionName, RUN_OPTION_NAMES, type RunOptions } from './run-options.js';


/** The bundled reference provisioner, served in-process for the run (`--reference`). */
export interface ReferenceConfig {
  mode: 'sync' | 'async' | 'mixed';
  fault?: string;
  work: Duration;
  /** Most operations it holds in progress at once. */
  maxOperations: number;
  storeFile?: string;
}

/** The property suites of a run, by name: the suites themselves load only when the run starts. */
export interface PropertyConfig {
  /** The properties to run, by catalog name; empty with --no-properties. */
  names: string[];
  /** Cases per property (the flag's, else the profile's); absent: each property's own default. */
  maxExamples?: number;
  /**
   * Each property's time limit: the one given, else derived from the operations its cases wait for. Absent when
   * the run has a time limit and no property time limit was given (then each property gets what the run's
   * budget leaves when the properties start), or when no property runs.
   */
  timeLimit?: PropertyTimeLimit;
  seed?: number;
  /** With `seed`: replays the one case this fast-check path names. */
  path?: string;
  allowApplyGenerated: boolean;
}

/**
 * Everything a run is told, decided once: the profile under the config file under the flags (or the
 * library's typed options), every default applied and every value checked. Nothing below defaults a value
 * again; the console, the runner, the suites, the reports and the bundle all read this.
 */
export interface RunConfig {
  profile: ProfileName;
  /** The config file the run read (given, or found in the working folder). */
  configFile?: string;
  /** Where the run aims: a provisioner's URL, or the bundled reference (its URL is known once it listens). */
  target: { url: string } | { reference: ReferenceConfig };
  /** Extra request headers, names in lower case. */
  headers: Record<string, string>;
  changeSets: LoadedChangeSet[];
  /** JSON pointer to the changes array in a change set (--changes-path). */
  changesPointer: string;
  registration?: RegistrationDocument;
  maxOperationDuration: DurationSetting;
  /** Time between reads of an operation. */
  pollInterval: Duration;
  /** How fast plan, apply and reads must answer; a slower answer is still awaited a while, to judge it too. */
  answerTimeout: Duration;
  planOnly: boolean;
  strict: boolean;
  showSecrets: boolean;
  only?: string[];
  skip?: string[];
  /** Plan calls sent at once by the burst suite; 0: no burst. */
  burst: number;
  /** Every second call of the burst is an apply. */
  burstApply: boolean;
  /** Shell command that restarts the provisioner; absent: only the reference is restarted, by the kit. */
  restartCommand?: string;
  /** Longest a restart may take. */
  restartTimeout: Duration;
  /** The run-wide budget; absent: the run is bounded only by its operations' deadlines. */
  timeLimit?: Duration;
  properties: PropertyConfig;
  baseline?: Baseline;
  /** The files and folder the run writes, checked before it starts. */
  outputs: CommandOutputs;
}

/** What a run is resolved from. */
export interface RunSources {
  /** Flags given on the command line, or the library's typed options: on top of everything. */
  options: RunOptions;
  /** For $PROVISIONER_URL and the config file's ${NAME} placeholders. */
  env: NodeJS.ProcessEnv;
  /** Where a config file is looked for when none is given. */
  cwd: string;
}

/** The reference provisioner's registration, used by `--reference` unless another one is given. */
const REFERENCE_REGISTRATION = ['fixtures', 'registrations', 'reference.json'];
/** More calls at once than this is not a burst test but a flood: the kit refuses it. */
const MOST_BURST = 1000;
// fast-check seeds are 32-bit integers.
const SEED_LIMIT = 2 ** 31;

/** Layers the sources into one set of options: built-in defaults, the profile, the config file, then the given options. */
function layered(sources: RunSources): { options: RunOptions; profile: ProfileName; configFile?: string } {
  const given = definedOptions(sources.options);
  const file = given.config ?? findConfigFile(sources.cwd);
  const fromFile = file === undefined ? {} : camelKeys(loadConfigFile(file, sources.env).values);
  const profile = given.profile ?? (fromFile.profile as string | undefined) ?? DEFAULT_PROFILE;
  if (!isProfileName(profile)) throw new UsageError('--profile', `unknown profile "${String(profile)}" (known: ${PROFILE_NAMES.join(', ')})`);
  const fromProfile = camelKeys(PROFILES[profile].values);
  // Decided later, from what else was given: whether it was given at all is what counts.
  const { maxOperationDuration: _operation, ...defaults } = RUN_DEFAULTS;
  return { options: { ...defaults, ...fromProfile, ...fromFile, ...given, profile } as RunOptions, profile, ...(file !== undefined && { configFile: file }) };
}

/** The options given, without those left undefined; an option the run does not know is refused by name. */
function definedOptions(options: RunOptions): RunOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw new UsageError('usage', 'the options of a run are an object of option names to values');
  const defined: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(options)) {
    if (!isRunOptionName(name)) throw new UsageError(name, `is not an option of a run (options: ${RUN_OPTION_NAMES.join(', ')})`);
    if (value !== undefined) defined[name] = value;
  }
  return defined as RunOptions;
}

function camelKeys(values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [camelOf(key), value]));
}

/** Turns profile, config file and flags (or typed options) into the one configuration of a run; every problem names its option. */
export async function resolveRunConfig(sources: RunSources): Promise<RunConfig> {
  const { options, profile, configFile } = layered(sources);
  const reference = options.reference === true;
  checkTypes(options);
  if (reference && options.url !== undefined) throw new UsageError('--reference', 'cannot be combined with --url: --reference serves its own provisioner');
  for (const name of ['referenceFault', 'referenceMaxOperations', 'referenceStore'] as const) {
    if (!reference && options[name] !== undefined) throw new UsageError(flagOf(name), 'goes with --reference');
  }
  const url = reference ? undefined : (options.url ?? (sources.env.PROVISIONER_URL || undefined));
  if (!reference && url === undefined) throw new UsageError('--url', 'missing: give --url URL, set PROVISIONER_URL, or use --reference');
  if (profile === 'certify') refuseWeakenedCertification(options);
  const changesPointer = changesPathField(options.changesPath);
  const headers = parseHeaders(headerLines(options.header));
  const timeLimit = options.timeLimit === undefined ? undefined : durationOption('timeLimit', options.timeLimit);
  const config: Omit<RunConfig, 'changeSets' | 'registration' | 'maxOperationDuration' | 'baseline'> = {
    profile,
    ...(configFile !== undefined && { configFile }),
    target: reference ? { reference: await referenceConfig(options) } : { url: urlField('--url', url!) },
    headers,
    changesPointer,
    pollInterval: durationOption('pollInterval', options.pollInterval),
    answerTimeout: durationOption('answerTimeout', options.answerTimeout),
    planOnly: options.planOnly!,
    strict: options.strict!,
    showSecrets: options.showSecrets!,
    ...optional('only', ruleIdsField('--only', options.only)),
    ...optional('skip', ruleIdsField('--skip', options.skip)),
    burst: wholeNumber('burst', options.burst, 0, MOST_BURST),
    burstApply: options.burstApply!,
    ...optional('restartCommand', restartCommandOption(options.restartCommand)),
    restartTimeout: durationOption('restartTimeout', options.restartTimeout),
    ...optional('timeLimit', timeLimit),
    properties: propertyConfig(options, PROFILES[profile].maxExamples),
    outputs: checkOutputPaths({ report: options.report, junit: options.junit, html: options.html, transcript: options.transcript, bundle: options.bundle }),
  };
  // Files are read last: a mistyped flag is reported before a slow or missing file.
  const files = options.changeSet && options.changeSet.length > 0 ? options.changeSet : await bundledChangeSetFiles();
  const changeSets = await loadChangeSets(files, changesPointer);
  const registrationFile = options.registration ?? (reference ? bundledPath(...REFERENCE_REGISTRATION) : undefined);
  const registration = registrationFile === undefined ? undefined : await loadRegistration(registrationFile);
  if (profile === 'certify' && registration === undefined) throw new UsageError('--registration', 'the certify profile needs the registration document: certification judges it');
  const baseline = options.baseline === undefined ? undefined : loadBaseline(options.baseline);
  const maxOperationDuration = maxOperationDurationField(options.maxOperationDuration, registration);
  // The reference's own registration is the kit's choice, not a length of work the user vouched for.
  const maxOperationDurationGiven = maxOperationDuration.source === 'flag' || (maxOperationDuration.source === 'registration' && options.registration !== undefined);
  const { timeLimit: givenPropertyLimit, ...properties } = config.properties;
  const propertyLimit = resolvePropertyTimeLimit(givenPropertyLimit, {
    names: properties.names,
    appliesGenerated: properties.allowApplyGenerated && !config.planOnly,
    maxOperationDuration,
    maxOperationDurationGiven,
    pollInterval: config.pollInterval,
    answerTimeout: config.answerTimeout,
    ...optional('runTimeLimit', timeLimit),
  });
  return {
    ...config,
    properties: { ...properties, ...optional('timeLimit', propertyLimit) },
    changeSets,
    ...optional('registration', registration),
    maxOperationDuration,
    ...optional('baseline', baseline),
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

const TYPES: Partial<Record<keyof RunOptions, 'string' | 'boolean' | 'strings'>> = {
  url: 'string', reference: 'boolean', referenceMode: 'string', referenceFault: 'string', referenceWork: 'string', referenceStore: 'string',
  config: 'string', changeSet: 'strings', registration: 'string', maxOperationDuration: 'string', pollInterval: 'string',
  answerTimeout: 'string', changesPath: 'string', planOnly: 'boolean', strict: 'boolean', only: 'strings', skip: 'strings',
  report: 'string', junit: 'string', html: 'string', baseline: 'string', bundle: 'string', transcript: 'string',
  showSecrets: 'boolean', burstApply: 'boolean', restartCommand: 'string', restartTimeout: 'string', timeLimit: 'string',
  properties: 'boolean', property: 'string', path: 'string', propertyTimeLimit: 'string', allowApplyGenerated: 'boolean',
};

/** A library caller is not held to types at run time: a value of the wrong kind is named here, not met later as a crash. */
function checkTypes(options: RunOptions): void {
  for (const [name, type] of Object.entries(TYPES) as Array<[keyof RunOptions, string]>) {
    const value = options[name];
    if (value === undefined) continue;
    const fits = type === 'strings' ? Array.isArray(value) && value.every((item) => typeof item === 'string') : typeof value === type;
    if (!fits) throw new UsageError(flagOf(name), `${JSON.stringify(value)} is not ${type === 'strings' ? 'a list of strings' : `a ${type}`}`);
  }
}

function headerLines(header: RunOptions['header']): string[] {
  if (header === undefined) return [];
  if (Array.isArray(header)) return header;
  if (typeof header !== 'object' || header === null) throw new UsageError('--header', 'is a list of "Name: value" lines or a map of names to values');
  return Object.entries(header).map(([name, value]) => `${name}: ${String(value)}`);
}

function durationOption(name: keyof RunOptions, value: unknown): Duration {
  return durationField(flagOf(name), value);
}

/** A whole number given as a number (library, YAML) or as text (flags, whose check then names the flag). */
function wholeNumber(name: keyof RunOptions, value: unknown, min: number, max: number): number {
  return wholeNumberField(flagOf(name), value, min, max);
}

async function referenceConfig(options: RunOptions): Promise<ReferenceConfig> {
  const mode = options.referenceMode!;
  if (!['sync', 'async', 'mixed'].includes(mode)) throw new UsageError('--reference-mode', `"${String(mode)}" is not one of sync, async, mixed`);
  if (options.referenceFault !== undefined) {
    // The reference's faults load only for a run against the reference.
    const { FAULTS, isFaultName } = await import('../reference/faults/index.js');
    if (!isFaultName(options.referenceFault)) {
      const known = FAULTS.map((fault) => fault.name);
      throw new UsageError('--reference-fault', `unknown fault "${options.referenceFault}"`, didYouMean(options.referenceFault, known, 'see serve --list-faults'));
    }
  }
  return {
    mode,
    ...optional('fault', options.referenceFault),
    work: durationOption('referenceWork', options.referenceWork),
    maxOperations: options.referenceMaxOperations === undefined ? DEFAULTS.referenceMaxOperations : wholeNumber('referenceMaxOperations', options.referenceMaxOperations, 0, Number.MAX_SAFE_INTEGER),
    ...optional('storeFile', options.referenceStore),
  };
}

function restartCommandOption(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '') throw new UsageError('--restart-command', 'is empty: give the shell command that restarts the provisioner');
  return value;
}

/** Certification judges every rule, strictly: the options that would make it say less are refused. */
function refuseWeakenedCertification(options: RunOptions): void {
  if (options.only !== undefined) throw new UsageError('--only', 'the certify profile judges every rule');
  if (options.skip !== undefined) throw new UsageError('--skip', 'the certify profile judges every rule');
  if (!options.strict) throw new UsageError('--strict', 'the certify profile is always strict: a SHOULD rule that does not hold fails it');
  if (options.planOnly) throw new UsageError('--plan-only', 'the certify profile applies: idempotency and every apply rule are part of it');
  if (options.baseline !== undefined) throw new UsageError('--baseline', 'the certify profile waives nothing: every failure counts');
}

/**
 * The property options as the run's property configuration; every problem names its option. The time limit is
 * only the one given: the rest of it needs the maxOperationDuration, known once the registration is read
 * (see resolvePropertyTimeLimit).
 */
export function propertyConfig(options: RunOptions, profileMaxExamples: number | undefined): PropertyConfig {
  const given = options.propertyTimeLimit;
  const timeLimit: PropertyTimeLimit | undefined = given === undefined ? undefined : { ...durationOption('propertyTimeLimit', given), origin: { source: 'given' } };
  const seed = options.seed === undefined ? undefined : wholeNumber('seed', options.seed, -SEED_LIMIT, SEED_LIMIT - 1);
  const maxExamples = options.maxExamples === undefined ? profileMaxExamples : wholeNumber('maxExamples', options.maxExamples, 1, 100_000);
  // A model-based path carries the commands' replay path after an '@'; one run in batches of another size than the property's own starts with `SIZE/`.
  if (options.path !== undefined && !/^(\d+\/)?\d+(:\d+)*(@\S+)?$/.test(options.path)) {
    throw new UsageError('--path', `"${options.path}" is not a fast-check path (numbers joined by colons, e.g. 3:0:1), as a failed property prints it`);
  }
  if (options.path !== undefined && seed === undefined) throw new UsageError('--path', 'replays a case only together with the --seed it was printed with');
  const names = selectProperties(options);
  if (options.path !== undefined && names.length !== 1) {
    throw new UsageError('--path', 'a path belongs to one property: name it with --property NAME, as the replay line prints it');
  }
  return {
    names,
    ...optional('maxExamples', maxExamples),
    ...optional('timeLimit', timeLimit),
    ...optional('seed', seed),
    ...optional('path', options.path),
    allowApplyGenerated: options.allowApplyGenerated ?? false,
  };
}

function selectProperties(options: RunOptions): string[] {
  const known = PROPERTY_CATALOG.map((suite) => suite.name);
  if (options.properties === false) {
    for (const name of ['property', 'seed', 'path', 'maxExamples'] as const) {
      if (options[name] !== undefined) throw new UsageError(flagOf(name), 'cannot be combined with --no-properties');
    }
    return [];
  }
  if (options.property === undefined) return known;
  // The report names properties with their family (`property/model-based-runs`); the bare name is as clear.
  const chosen = known.find((name) => name === options.property || name === `property/${options.property}`);
  if (!chosen) throw new UsageError('--property', `unknown property "${options.property}" (known: ${known.join(', ')})`);
  return [chosen];
}
