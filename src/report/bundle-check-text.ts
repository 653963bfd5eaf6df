import type { BundleCheck } from '../runner/verify-bundle.js';

/** What `verify DIR` prints of a bundle's check: each file's hash, each problem, the verdicts, and whether it holds. */
export function bundleCheckText(dir: string, check: BundleCheck): string {
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
