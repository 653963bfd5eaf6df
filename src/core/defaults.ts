/**
 * The defaults table: every built-in value of the kit's commands, written once, named for what it is and as
 * the user would write it. The resolvers of `src/config` apply them (under a profile, a config file and the
 * flags), the flags' help shows them, and the layers below the configuration read them for what a caller
 * leaves out (the reference provisioner's options, the client's body limit). It imports nothing, so that the
 * help can show them without loading the rule catalog. `test/architecture/defaults.test.ts` holds that no
 * other module writes a duration of its own.
 */

/** The most maxOperationDuration a registration may hold: the contract's bound. */
export const MOST_OPERATION_DURATION = 'PT30M';

export const DEFAULTS = {
  /** Longest wait for an operation when neither a flag nor a valid registration gives one: the most a registration may hold. */
  maxOperationDuration: MOST_OPERATION_DURATION,
  /** How fast plan, apply and reads must answer. */
  answerTimeout: 'PT10S',
  /** A run's own time between reads of an operation. */
  runPollInterval: 'PT1S',
  /** The control plane's time between reads: what the reports of observed or recorded traffic state, and what certification polls at. */
  controlPlanePollInterval: 'PT10S',
  /** JSON pointer to the changes array in a change set. */
  changesPath: '/changes',
  strict: false,
  showSecrets: false,
  /** Bytes of an answer's body kept for judging, in a run as in observed or recorded traffic; observed traffic itself always passes whole. */
  bodyLimitBytes: 1024 * 1024,
  /** Where the observer listens: port 0 takes a free one. */
  observeListen: '127.0.0.1:0',
  /** How often the observer rewrites its JSON report. */
  observeReportEvery: 'PT1M',
  /** How the reference provisioner answers, served by `serve` or by `run --reference`. */
  referenceMode: 'mixed',
  /** How long the reference's accepted work takes in a run: short, so that a run against it is quick. */
  runReferenceWork: 'PT0.5S',
  /** How long the reference's accepted work takes when served on its own: long enough to watch an operation. */
  serveWork: 'PT2S',
  /** Most operations the reference holds in progress at once. */
  referenceMaxOperations: 100,
  serveHost: '127.0.0.1',
  /** Port 0: a free one. */
  servePort: 0,
  /** Longest a restart command may take. */
  restartTimeout: 'PT60S',
  /** Plan calls sent at once: the load the contract's capacity rule is written for. */
  burst: 50,
  /** The quick profile's poll interval and time limit: an author's loop against an instant provisioner. */
  quickPollInterval: 'PT0.2S',
  quickTimeLimit: 'PT2M',
  /** The ci profile's time limit: a gate must end whatever the provisioner does. */
  ciTimeLimit: 'PT15M',
} as const;
