import { chooseMaxOperationDuration } from '../config/run-config.js';
import { changeSetRecorder } from '../observe/change-set-files.js';
import { writeObservedOutputs } from '../observe/outputs.js';
import { verifyHar } from '../observe/verify-har.js';
import { loadRegistration } from '../config/registration.js';
import { ruleIdsFlag } from '../config/run-config.js';
import { isValidPointer } from '../core/json-pointer.js';
import { UsageError } from '../errors.js';
import { renderSummary } from '../report/console.js';
import { SecretMask } from '../report/secret-mask.js';
import { shouldUseColor } from '../report/style.js';
import type { VerifyArgs } from './declarations/verify.js';

/** `verify --har FILE`: judges recorded traffic as observe judges live traffic, prints the summary, writes the reports asked for. */
export async function verifyHarCommand(args: VerifyArgs & { har: string }): Promise<number> {
  if (!isValidPointer(args.changesPath)) throw new UsageError('--changes-path', `"${args.changesPath}" is not a JSON pointer (write e.g. /changes)`);
  const registration = args.registration === undefined ? undefined : await loadRegistration(args.registration);
  let recordFailure: unknown;
  const outcome = await verifyHar(args.har, {
    maxOperationDuration: chooseMaxOperationDuration(args.maxOperationDuration, registration),
    ...(registration && { registration }),
    answerTimeoutMs: 10_000,
    pollIntervalMs: 10_000,
    selection: { strict: args.strict, only: ruleIdsFlag('--only', args.only), skip: ruleIdsFlag('--skip', args.skip) },
    changesPointer: args.changesPath,
    showSecrets: args.showSecrets,
    bodyLimitBytes: 1024 * 1024,
    ...(args.recordChangeSets !== undefined && { onChangeSet: changeSetRecorder(args.recordChangeSets, (error) => (recordFailure ??= error)) }),
  });
  const mask = args.showSecrets ? SecretMask.none() : new SecretMask().learnExchanges(outcome.transcript.exchanges);
  for (const secret of args.secret ?? []) mask.add(secret);
  if (registration?.json.ok) mask.learnJson(registration.json.value);
  // No bundle here: the masks and settings a bundle would record are not needed.
  await writeObservedOutputs({ report: args.report, junit: args.junit, html: args.html }, outcome, { shown: mask, secrets: mask }, {});
  process.stdout.write(mask.text(renderSummary(outcome, { color: shouldUseColor(process.stdout, process.env) })));
  if (recordFailure !== undefined) process.stderr.write(`verify: a change set could not be kept: ${recordFailure instanceof Error ? recordFailure.message : String(recordFailure)}\n`);
  return outcome.exitCode;
}
