import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';

/** What main prints on stderr for a command line, and its exit code; nothing runs past the refusal. */
async function refused(argv: string[]): Promise<{ exitCode: number; stderr: string }> {
  let stderr = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  const exitCode = await main(argv);
  return { exitCode, stderr };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a refused command line', () => {
  it.each([
    [['runn'], 'provisioner-conformance: unknown command "runn" (did you mean run?) [KIT_USAGE]'],
    [['run', '--reference', '--only', 'answer.statuss'], 'provisioner-conformance: --only: unknown rule id "answer.statuss" (did you mean answer.status?) [KIT_USAGE]'],
    [['run', '--reference', '--burst', 'lots'], 'provisioner-conformance: --burst: "lots" is not a whole number from 0 to 1000 (see provisioner-conformance --help) [KIT_USAGE]'],
    [['run', '--url', '127.0.0.1:33815'], 'provisioner-conformance: --url: "127.0.0.1:33815" is not an absolute URL (did you mean http://127.0.0.1:33815?) [KIT_USAGE]'],
    [['run', '--reference', '--poll-interval', 'soon'], 'provisioner-conformance: --poll-interval: "soon" is not an ISO 8601 duration (write e.g. PT0.5S, PT10S or PT5M) [KIT_USAGE]'],
    [['run', '--reference', '--reference-fault', 'nope'], 'provisioner-conformance: --reference-fault: unknown fault "nope" (see serve --list-faults) [KIT_USAGE]'],
    [['verify', '--har', 'no/such/file.har'], 'provisioner-conformance: --har: cannot read no/such/file.har: no such file or folder (ENOENT) (see provisioner-conformance --help) [KIT_CONFIG]'],
  ])('%j is one line with one hint, exit 2', async (argv, line) => {
    const { exitCode, stderr } = await refused(argv);
    expect(stderr).toBe(`${line}\n`);
    expect(exitCode).toBe(2);
  });
});

describe('advice a check words itself', () => {
  it('is the only hint: the help is not pointed to a second time', async () => {
    const { stderr } = await refused(['run', '--reference', '--property', 'nope']);
    expect(stderr).toMatch(/^provisioner-conformance: --property: unknown property "nope" \(known: [^)]*\) \[KIT_USAGE\]\n$/);
  });
});
