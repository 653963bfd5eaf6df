/**
 * The built-in value of each run option that has one, as the user would write it. The resolver is the one
 * place that applies them (under the profile, the config file and the flags); `run --help` shows them.
 * They live apart so that the flags' help can show them without loading the rule catalog.
 */
export const RUN_DEFAULTS = {
  reference: false,
  referenceMode: 'mixed',
  referenceWork: 'PT0.5S',
  pollInterval: 'PT1S',
  answerTimeout: 'PT10S',
  changesPath: '/changes',
  planOnly: false,
  strict: false,
  showSecrets: false,
  /** The load the contract's capacity rule is written for. */
  burst: 50,
  burstApply: false,
  restartTimeout: 'PT60S',
  properties: true,
  allowApplyGenerated: false,
  /** Longest wait for an operation when neither the flag nor a valid registration gives one. */
  maxOperationDuration: 'PT30M',
} as const;
