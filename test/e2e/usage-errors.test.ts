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
    [['run'], '--url'],
    [['run', '--url', 'ftp://example.com'], '--url'],
    [['run', '--reference', '--bogus'], 'bogus'],
    [['serve', '--mode', 'sometimes'], 'mode'],
    [['run', '--reference', '--poll-interval'], 'poll-interval'],
    [['serve', '--port', '70000'], '--port'],
    [['frobnicate'], 'frobnicate'],
  ])('%j is a one-line error naming %s, exit 2', async (args, flag) => {
    const run = await runCli(args, { withReport: false, env: { PROVISIONER_URL: '' } });
    expect(run.exitCode).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(flag);
  });
});
