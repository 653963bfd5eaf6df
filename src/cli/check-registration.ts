import type { CommandModule } from 'yargs';
import { loadRegistration } from '../config/registration.js';
import { PT30M_MS } from '../core/duration.js';
import { judgeRules, registrationRuleIds } from '../rules/index.js';
import type { JudgeContext } from '../core/judge-context.js';
import { Transcript } from '../transcript/transcript.js';
import { stripControl } from '../report/safe-text.js';
import { SecretMask } from '../report/secret-mask.js';
import type { CommandResult } from './command-result.js';
import { CHECK_REGISTRATION_DECLARATION, type CheckRegistrationArgs } from './declarations/check-registration.js';

/** Judges a registration document alone: no provisioner is called, so only what the document says is judged. */
export function checkRegistrationCommand(result: CommandResult): CommandModule<object, CheckRegistrationArgs> {
  return {
    ...CHECK_REGISTRATION_DECLARATION,
    handler: async (args) => {
      // The document is the command's argument, not a flag: the message names it so.
      const registration = await loadRegistration(args.registration, 'the registration document');
      const context: JudgeContext = {
        changeSets: [],
        answerTimeoutMs: 0,
        pollIntervalMs: 0,
        maxOperationDuration: { ms: PT30M_MS, text: 'PT30M', source: 'default' },
        registration,
        planOnly: true,
        startedAt: Date.now(),
      };
      const registrationRules = registrationRuleIds();
      const rules = judgeRules(new Transcript(), context, { only: registrationRules });
      const lines = rules
        .filter((rule) => registrationRules.includes(rule.id))
        .flatMap((rule) => [
          `${rule.status.padEnd(6)} ${rule.id}: ${stripControl(rule.message)}`,
          ...rule.evidence.map((item) => `         ${stripControl(item.note)}`),
        ]);
      const failed = rules.some((rule) => rule.status === 'fail');
      // What it prints passes the mask as a run's reports do: values under the document's secret-looking keys hidden.
      const mask = new SecretMask().learnJson(registration.json.ok ? registration.json.value : undefined);
      process.stdout.write(mask.text(`${lines.join('\n')}\n${failed ? 'the registration does not hold' : 'the registration holds'}\n`));
      result.exitCode = failed ? 1 : 0;
    },
  };
}
