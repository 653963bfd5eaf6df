import type { CheckRegistrationConfig } from '../config/check-registration-config.js';
import { maxOperationDurationField } from '../config/fields.js';
import type { JudgeContext } from '../core/judge-context.js';
import type { ExitCode } from '../core/verdict.js';
import { stripControl } from '../report/safe-text.js';
import { SecretMask } from '../report/secret-mask.js';
import { judgeRules, registrationRuleIds } from '../rules/index.js';
import type { RuleResult } from '../rules/types.js';
import { Transcript } from '../transcript/transcript.js';
import type { KitIo } from './io.js';

/** What judging a registration document alone found: its rules, whether it holds, and the exit code that says so. */
export interface RegistrationCheck {
  rules: RuleResult[];
  holds: boolean;
  exitCode: ExitCode;
  /** The mask of what is shown: values under the document's secret-looking keys. */
  shown: SecretMask;
}

/**
 * Judges a registration document alone: no provisioner is called, so only what the document says is judged.
 * With `io.console`, prints each rule and whether the registration holds.
 */
export function checkRegistration(config: CheckRegistrationConfig, io: Pick<KitIo, 'console' | 'stdout'>): RegistrationCheck {
  const { registration } = config;
  // No traffic: nothing is timed, and no flag or registered value is vouched for.
  const context: JudgeContext = {
    changeSets: [],
    answerTimeoutMs: 0,
    pollIntervalMs: 0,
    maxOperationDuration: maxOperationDurationField(undefined, undefined),
    registration,
    planOnly: true,
    startedAt: Date.now(),
  };
  const registrationRules = registrationRuleIds();
  const rules = judgeRules(new Transcript(), context, { only: registrationRules }).filter((rule) => registrationRules.includes(rule.id));
  const holds = !rules.some((rule) => rule.status === 'fail');
  // What it shows passes the mask as a run's reports do: values under the document's secret-looking keys hidden.
  const shown = new SecretMask().learnJson(registration.json.ok ? registration.json.value : undefined);
  if (io.console) (io.stdout ?? process.stdout).write(shown.text(registrationCheckText(rules, holds)));
  return { rules, holds, exitCode: holds ? 0 : 1, shown };
}

function registrationCheckText(rules: readonly RuleResult[], holds: boolean): string {
  const lines = rules.flatMap((rule) => [`${rule.status.padEnd(6)} ${rule.id}: ${stripControl(rule.message)}`, ...rule.evidence.map((item) => `         ${stripControl(item.note)}`)]);
  return `${lines.join('\n')}\n${holds ? 'the registration holds' : 'the registration does not hold'}\n`;
}
