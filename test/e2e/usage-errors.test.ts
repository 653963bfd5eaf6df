import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

describe('usage errors', () => {
  it.each([
    [['run', '--reference', '--poll-interval', 'soon'], '--poll-interval'],
    [['run', '--reference', '--max-operation-duration', 'PT45M'], '--max-operation-duration'],
    [['run', '--reference', '--change-set', 'no/such/file.json'], '--change-set'],
    [['run', '--reference', '--header', 'no colon'], '--header'],
    [['run', '--reference', '--reference-fault', 'no-such-fault'], '--reference-fault'],
    [['run', '--reference', '--only', 'no.such-rule'], '--only'],
    // Two operations of the registration's PT1M cannot fit in PT10S.
    [['run', '--reference', '--registration', 'fixtures/registrations/reference.json', '--property-time-limit', 'PT10S'], '--property-time-limit: PT10S cannot fit one case of property/model-based-runs'],
    [['run'], '--url'],
    [['run', '--url', 'ftp://example.com'], '--url'],
    [['run', '--reference', '--bogus'], 'bogus'],
    [['serve', '--mode', 'sometimes'], 'mode'],
    [['run', '--reference', '--poll-interval'], 'poll-interval'],
    [['serve', '--port', '70000'], '--port'],
    [['frobnicate'], 'frobnicate'],
    // Outputs that cannot be written are refused before the run, not found out after it.
    [['run', '--reference', '--report', '/dev/null/report.json'], '--report: /dev/null is a file'],
    [['run', '--reference', '--bundle', '/dev/null/bundle'], '--bundle: /dev/null is a file'],
    [['check-registration', '/no/such/registration.json'], 'the registration document: cannot read /no/such/registration.json'],
    // A typo is named as typed, once, with the flag it meant and no second hint.
    [['run', '--reference', '--poll-intervall', 'PT1S'], 'provisioner-conformance: unknown flag "--poll-intervall" (did you mean --poll-interval?) [KIT_USAGE]'],
  ])('%j is a one-line error naming %s, exit 2', async (args, flag) => {
    const run = await runCli(args, { withReport: false, env: { PROVISIONER_URL: '' } });
    expect(run.exitCode).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(flag);
  });

  it.skipIf(!existsSync('/dev/full'))('an output the disk refuses after the run is one line naming it; the others are written, and the verdict line and exit code say it is missing', async () => {
    const junit = join(mkdtempSync(join(tmpdir(), 'pc-e2e-')), 'junit.xml');
    const run = await runCli(['run', '--reference', '--no-properties', '--burst', '0', '--reference-work', 'PT0.1S', '--report', '/dev/full', '--junit', junit], { withReport: false });
    expect(run.exitCode).toBe(2);
    expect(run.stderr.trim().split('\n').filter((line) => line.includes('/dev/full'))).toEqual([
      'provisioner-conformance: --report /dev/full: cannot write it: no space left on the device (ENOSPC) [KIT_OUTPUT]',
    ]);
    expect(run.stderr).not.toContain('KIT_INTERNAL');
    expect(run.stdout).toMatch(/verdict: \w+, but the JSON report \/dev\/full could not be written \(exit 2\)/);
    expect(existsSync(junit)).toBe(true);
  }, 60_000);
});
