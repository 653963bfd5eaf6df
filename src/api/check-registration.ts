import { resolveCheckRegistrationConfig, type CheckRegistrationOptions } from '../config/check-registration-config.js';
import type { ExitCode } from '../core/verdict.js';
import { checkRegistration as judgeRegistration } from '../kit/check-registration.js';
import type { RuleResult } from '../rules/types.js';

export type { CheckRegistrationOptions } from '../config/check-registration-config.js';

/** How the registration rules judged a document: each rule's result (masked), and whether the document holds. */
export interface RegistrationVerdict {
  holds: boolean;
  rules: RuleResult[];
}

/**
 * Judges a registration document alone (the registration.* rules), without calling a provisioner, as
 * `provisioner-conformance check-registration` does, without printing anything. Rejects with a `KitError`
 * for a document it cannot read; one that is not JSON is judged, and does not hold.
 */
export async function checkRegistration(options: CheckRegistrationOptions): Promise<RegistrationVerdict> {
  const check = judgeRegistration(await resolveCheckRegistrationConfig(options), { console: false });
  const rules = JSON.parse(check.shown.json(JSON.stringify(check.rules))) as RuleResult[];
  return { holds: check.holds, rules };
}

/** `provisioner-conformance check-registration` on the terminal: prints how each registration rule judges the document, and resolves to the exit code. */
export async function checkRegistrationOnConsole(options: CheckRegistrationOptions): Promise<ExitCode> {
  return judgeRegistration(await resolveCheckRegistrationConfig(options), { console: true }).exitCode;
}
