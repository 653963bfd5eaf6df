import type { CommandModule } from 'yargs';
import { ruleIdsFlag } from '../config/run-options.js';
import { ConfigError, KitError, messageOf } from '../errors.js';
import { verifyTranscript } from '../runner/verify.js';
import { renderSummary } from '../report/console.js';
import { shouldUseColor } from '../report/style.js';
import type { CommandResult } from './command-result.js';
import { VERIFY_DECLARATION, type VerifyArgs } from './declarations/verify.js';
import { stat } from 'node:fs/promises';
import { verifyBundle, type BundleCheck } from '../runner/verify-bundle.js';

export function verifyCommand(result: CommandResult): CommandModule<object, VerifyArgs> {
  return {
    ...VERIFY_DECLARATION,
    handler: async (args) => {
      if (await isDirectory(args.transcript)) {
        const check = await verifyBundle(args.transcript);
        process.stdout.write(bundleCheckText(args.transcript, check));
        result.exitCode = check.problems.length === 0 ? 0 : 1;
        return;
      }
      let outcome;
      try {
        outcome = await verifyTranscript(args.transcript, { strict: args.strict, only: ruleIdsFlag('--only', args.only), skip: ruleIdsFlag('--skip', args.skip) });
      } catch (error) {
        if (error instanceof KitError) throw error;
        throw new ConfigError('transcript', `cannot read ${args.transcript}: ${(error as NodeJS.ErrnoException).code ?? messageOf(error)}`);
      }
      process.stdout.write(renderSummary(outcome, { color: shouldUseColor(process.stdout, process.env) }));
      result.exitCode = outcome.exitCode;
    },
  };
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
  lines.push(check.problems.length === 0 ? 'the bundle holds: every file is as written and its verdict follows from its transcript' : `the bundle does not hold: ${check.problems.length} problem(s)`);
  return `${lines.join('\n')}\n`;
}
