import { DEFAULTS } from '../core/defaults.js';

/** The defaults table lives in `src/core/defaults.ts`, below every layer that reads it; the configuration applies it. */
export { DEFAULTS } from '../core/defaults.js';

/** The built-in value of each run option that has one, by option name: the resolver lays the profile, the config file and the flags over them. */
export const RUN_DEFAULTS = {
  reference: false,
  referenceMode: DEFAULTS.referenceMode,
  referenceWork: DEFAULTS.runReferenceWork,
  pollInterval: DEFAULTS.runPollInterval,
  answerTimeout: DEFAULTS.answerTimeout,
  changesPath: DEFAULTS.changesPath,
  planOnly: false,
  strict: DEFAULTS.strict,
  showSecrets: DEFAULTS.showSecrets,
  burst: DEFAULTS.burst,
  burstApply: false,
  restartTimeout: DEFAULTS.restartTimeout,
  properties: true,
  allowApplyGenerated: false,
  maxOperationDuration: DEFAULTS.maxOperationDuration,
} as const;
