import type { Argv } from 'yargs';
import type { Declaration } from './declaration.js';
import type { ObserveFlags } from '../../config/observe-config.js';
import { DEFAULTS } from '../../config/defaults.js';

/** The observe command's flags are the observation's options: one list, kept with its configuration. */
export type ObserveArgs = ObserveFlags;

export const OBSERVE_DECLARATION: Declaration<ObserveArgs> = {
  command: 'observe',
  describe: 'Stand in front of a provisioner as a reverse proxy and judge the real control plane\'s traffic as it flows',
  builder: (yargs: Argv<object>) =>
    yargs
      .option('config', { type: 'string', requiresArg: true, describe: 'Config file (JSON or YAML): the keys it shares with run, and its observe section (default: provisioner-conformance.config.json/.yaml/.yml in the working folder); flags win' })
      .option('upstream', { type: 'string', requiresArg: true, describe: 'Base URL of the provisioner; every request goes on to it unchanged (required, here or in the config file)' })
      .option('listen', { type: 'string', requiresArg: true, defaultDescription: DEFAULTS.observeListen, describe: 'HOST:PORT the observer listens on (port 0: a free one); its URL is printed' })
      .option('registration', { type: 'string', requiresArg: true, describe: 'The provisioner\'s registration document (JSON), judged and used for maxOperationDuration' })
      .option('max-operation-duration', { type: 'string', requiresArg: true, describe: `Deadline of an operation, ISO 8601 (default: the registration's, else ${DEFAULTS.maxOperationDuration})` })
      .option('answer-timeout', { type: 'string', requiresArg: true, defaultDescription: DEFAULTS.answerTimeout, describe: 'How fast plan and apply must answer' })
      .option('poll-interval', { type: 'string', requiresArg: true, defaultDescription: DEFAULTS.controlPlanePollInterval, describe: 'The control plane\'s poll interval, as reports state it' })
      .option('strict', { type: 'boolean', defaultDescription: String(DEFAULTS.strict), describe: 'Fail on SHOULD rules that do not hold' })
      .option('only', { type: 'string', requiresArg: true, array: true, describe: 'Judge only these rule ids' })
      .option('skip', { type: 'string', requiresArg: true, array: true, describe: 'Do not judge these rule ids' })
      .option('changes-path', { type: 'string', requiresArg: true, defaultDescription: DEFAULTS.changesPath, describe: 'JSON pointer to the changes array in a change set' })
      .option('report-every', { type: 'string', requiresArg: true, defaultDescription: DEFAULTS.observeReportEvery, describe: 'Rewrite the JSON report this often (ISO 8601); it is also written at the end' })
      .option('duration', { type: 'string', requiresArg: true, describe: 'Stop by itself after this long (ISO 8601); else until SIGINT or SIGTERM' })
      .option('report', { type: 'string', requiresArg: true, describe: 'Write the JSON report to this file (atomically, every --report-every and at the end)' })
      .option('junit', { type: 'string', requiresArg: true, describe: 'Write the results as JUnit XML to this file at the end' })
      .option('html', { type: 'string', requiresArg: true, describe: 'Write the HTML report to this file at the end' })
      .option('transcript', { type: 'string', requiresArg: true, describe: 'Append every exchange to this file as the traffic flows, one masked line each (verify FILE judges it again as the observer did)' })
      .option('bundle', { type: 'string', requiresArg: true, describe: 'Write the evidence as a bundle to this folder at the end: the reports, the transcript kept, the settings and a manifest of hashes (always masked; check it with verify DIR)' })
      .option('record-change-sets', { type: 'string', requiresArg: true, describe: 'Keep each distinct change set seen in this folder (a file per body, named by type and hash)' })
      .option('secret', { type: 'string', array: true, requiresArg: true, describe: 'Also mask this value (6 characters or more) in every output (repeatable)' })
      .option('show-secrets', { type: 'boolean', defaultDescription: String(DEFAULTS.showSecrets), describe: 'Show header values and secret-looking values in reports' }) as unknown as Argv<ObserveArgs>,
};
