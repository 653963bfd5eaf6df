import type { CommandModule } from 'yargs';
import { ruleIdsFlag } from '../config/run-config.js';
import { UsageError } from '../errors.js';
import { renderSummary } from '../report/console.js';
import { shouldUseColor } from '../report/style.js';
import type { CommandResult } from './command-result.js';
import { VERIFY_DECLARATION, type VerifyArgs } from './declarations/verify.js';
import { stat } from 'node:fs/promises';
import { verifyBundle, type BundleCheck } from '../runner/verify-bundle.js';
import { SecretMask } from '../report/secret-mask.js';
import type { Exchange } from '../transcript/exchange.js';
import { writeObservedOutputs } from '../observe/outputs.js';

export function verifyCommand(result: CommandResult): CommandModule<object, VerifyArgs> {
  return {
    ...VERIFY_DECLARATION,
    handler: async (args) => {
      if (args.har !== undefined) {
        if (args.transcript !== undefined) throw new UsageError('--har', 'judges a HAR file instead of a transcript: give one or the other');
        const { verifyHarCommand } = await import('./verify-har.js');
        result.exitCode = await verifyHarCommand({ ...args, har: args.har });
        return;
      }
      if (args.transcript === undefined) throw new UsageError('usage', 'name the transcript file or bundle folder to verify, or give --har FILE');
      if (await isDirectory(args.transcript)) {
        const check = await verifyBundle(args.transcript);
        process.stdout.write(printedMask(args, check.exchanges).text(bundleCheckText(args.transcript, check)));
        result.exitCode = check.problems.length === 0 ? 0 : 1;
        return;
      }
      const selection = { strict: args.strict, only: ruleIdsFlag('--only', args.only), skip: ruleIdsFlag('--skip', args.skip) };
      const { verifyTranscriptFile } = await import('../observe/verify-transcript.js');
      const outcome = await verifyTranscriptFile(args.transcript, selection, { showSecrets: args.showSecrets });
      const mask = printedMask(args, outcome.transcript.exchanges);
      await writeObservedOutputs({ report: args.report, junit: args.junit, html: args.html }, outcome, { shown: mask, secrets: mask }, {});
      const summary = renderSummary(outcome, { color: shouldUseColor(process.stdout, process.env) });
      process.stdout.write(mask.text(summary));
      result.exitCode = outcome.exitCode;
    },
  };
}

/**
 * What verify prints passes the run's mask, learnt from the transcript itself: a transcript written with
 * --show-secrets holds the run's header values in its requests (every header the kit does not set itself is
 * the user's, as --header gave it), values under secret-looking keys and credential headers in its bodies and
 * answers, and passwords in URLs. --secret adds values the transcript cannot show to be secret; --show-secrets
 * lifts the mask.
 */
function printedMask(args: VerifyArgs, exchanges: readonly Exchange[]): SecretMask {
  if (args.showSecrets) return SecretMask.none();
  const mask = new SecretMask().learnRequestHeaders(exchanges).learnExchanges(exchanges);
  for (const secret of args.secret ?? []) mask.add(secret);
  return mask;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

function bundleCheckText(dir: string, check: BundleCheck): string {
  const lines = [`bundle ${dir}`];
  for (const file of check.checked) lines.push(`  ok    ${file}: sha256 as the manifest records`);
  for (const { file, problem } of check.problems) lines.push(`  FAIL  ${file} ${problem}`);
  if (check.otherCatalog) lines.push('  note: the bundle was judged by another rule catalog than this kit\'s');
  if (check.judgedVerdict !== undefined) lines.push(`verdict: recorded ${check.recordedVerdict}, judged again ${check.judgedVerdict}`);
  if (check.observed) {
    lines.push('  note: a bundle of an observation keeps only the evidence of what did not hold: every rule it records broken was judged again on that evidence; the passes were counted while observing and are not judged again');
    if (check.notRejudged.length > 0) lines.push(`  note: ${check.notRejudged.join(', ')}: judged against the whole observed traffic, which the evidence does not hold; left as recorded`);
  }
  const holds = check.observed ? 'every file is as written and every rule it records broken is still broken on its evidence' : 'every file is as written and its verdict follows from its transcript';
  lines.push(check.problems.length === 0 ? `the bundle holds: ${holds}` : `the bundle does not hold: ${check.problems.length} problem(s)`);
  return `${lines.join('\n')}\n`;
}
