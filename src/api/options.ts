/**
 * The options of `runConformance`: the run command's long option names in camelCase, with the same
 * meaning and defaults (see `provisioner-conformance run --help`), plus `signal` to stop the run.
 */
export interface ConformanceOptions {
  /** The provisioner's base URL (default: `$PROVISIONER_URL`). */
  url?: string;
  /** Run against the bundled reference provisioner, served in-process on a free loopback port. */
  reference?: boolean;
  referenceMode?: 'sync' | 'async' | 'mixed';
  referenceFault?: string;
  referenceWork?: string;
  referenceMaxOperations?: number;
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
  burst?: number;
  burstApply?: boolean;
  restartCommand?: string;
  restartTimeout?: string;
  /** Budget of the whole run, ISO 8601 (e.g. `PT15M`); past it the run is judged on what happened and is `incomplete` unless a rule failed. */
  timeLimit?: string;
  properties?: boolean;
  property?: string;
  seed?: number;
  path?: string;
  maxExamples?: number;
  propertyTimeLimit?: string;
  allowApplyGenerated?: boolean;
  /** Stops the run: what was not driven is not judged, and the verdict is `error`. */
  signal?: AbortSignal;
}

/** Every option of {@link ConformanceOptions} that is a run flag: a test holds it to the run command's flags. */
export const RUN_FLAG_OPTIONS = {
  url: true, reference: true, referenceMode: true, referenceFault: true, referenceWork: true, referenceMaxOperations: true,
  referenceStore: true, profile: true, config: true, changeSet: true, registration: true, maxOperationDuration: true,
  pollInterval: true, answerTimeout: true, header: true, changesPath: true, planOnly: true, strict: true, only: true,
  skip: true, report: true, junit: true, html: true, baseline: true, bundle: true, transcript: true, showSecrets: true,
  burst: true, burstApply: true, restartCommand: true, restartTimeout: true, timeLimit: true, properties: true, property: true, seed: true,
  path: true, maxExamples: true, propertyTimeLimit: true, allowApplyGenerated: true,
} as const satisfies Record<Exclude<keyof ConformanceOptions, 'signal'>, true>;

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/** The options as the run command's arguments, so that a library run resolves exactly as a command line does. */
export function optionsToArgs(options: ConformanceOptions): string[] {
  const args: string[] = [];
  for (const name of Object.keys(RUN_FLAG_OPTIONS) as Array<keyof typeof RUN_FLAG_OPTIONS>) {
    const value = options[name];
    if (value === undefined) continue;
    const flag = `--${kebab(name)}`;
    if (typeof value === 'boolean') args.push(value ? flag : `--no-${kebab(name)}`);
    else if (Array.isArray(value)) for (const item of value) args.push(flag, item);
    else if (typeof value === 'object') for (const [header, text] of Object.entries(value)) args.push(flag, `${header}: ${text}`);
    else args.push(flag, String(value));
  }
  return args;
}
