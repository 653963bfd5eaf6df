/**
 * The options of a run as values: the run command's long option names in camelCase. A command line, a
 * config file and the library's typed options all become this before the resolver decides the run.
 */
export interface RunOptions {
  /** The provisioner's base URL (default: `$PROVISIONER_URL`). */
  url?: string;
  /** Run against the bundled reference provisioner, served in-process on a free loopback port. */
  reference?: boolean;
  referenceMode?: 'sync' | 'async' | 'mixed';
  referenceFault?: string;
  referenceWork?: string;
  referenceMaxOperations?: number | string;
  referenceStore?: string;
  profile?: 'quick' | 'ci' | 'certify';
  config?: string;
  changeSet?: string[];
  registration?: string;
  maxOperationDuration?: string;
  pollInterval?: string;
  answerTimeout?: string;
  /** Extra request headers: `"Name: value"` lines, or a name-to-value map. */
  header?: string[] | Record<string, string>;
  changesPath?: string;
  planOnly?: boolean;
  strict?: boolean;
  only?: string[];
  skip?: string[];
  report?: string;
  junit?: string;
  html?: string;
  baseline?: string;
  bundle?: string;
  transcript?: string;
  showSecrets?: boolean;
  burst?: number | string;
  burstApply?: boolean;
  restartCommand?: string;
  restartTimeout?: string;
  /** Budget of the whole run, ISO 8601 (e.g. `PT15M`); past it the run is judged on what happened and is `incomplete` unless a rule failed. */
  timeLimit?: string;
  properties?: boolean;
  property?: string;
  seed?: number | string;
  path?: string;
  maxExamples?: number | string;
  /**
   * Each property's budget, ISO 8601; absent: what `timeLimit` leaves, else one derived from maxOperationDuration.
   * Refused when it cannot fit one case of a maxOperationDuration that was given.
   */
  propertyTimeLimit?: string;
  allowApplyGenerated?: boolean;
}

// Every option once, as the keys of an object that must name each option of RunOptions: a new option missing here does not compile.
const OPTIONS = {
  url: true, reference: true, referenceMode: true, referenceFault: true, referenceWork: true, referenceMaxOperations: true,
  referenceStore: true, profile: true, config: true, changeSet: true, registration: true, maxOperationDuration: true,
  pollInterval: true, answerTimeout: true, header: true, changesPath: true, planOnly: true, strict: true, only: true,
  skip: true, report: true, junit: true, html: true, baseline: true, bundle: true, transcript: true, showSecrets: true,
  burst: true, burstApply: true, restartCommand: true, restartTimeout: true, timeLimit: true, properties: true, property: true,
  seed: true, path: true, maxExamples: true, propertyTimeLimit: true, allowApplyGenerated: true,
} as const satisfies Record<keyof RunOptions, true>;

/** Every option of a run: a test holds this list to the run command's flags. */
export const RUN_OPTION_NAMES = Object.keys(OPTIONS) as ReadonlyArray<keyof typeof OPTIONS>;

export type RunOptionName = (typeof RUN_OPTION_NAMES)[number];

/** `pollInterval` as a flag is written: `--poll-interval`. Every message about an option names it so. */
export function flagOf(name: string): string {
  return `--${kebabOf(name)}`;
}

export function kebabOf(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

export function camelOf(name: string): string {
  return name.replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

export function isRunOptionName(name: string): name is RunOptionName {
  return (RUN_OPTION_NAMES as readonly string[]).includes(name);
}
