import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startReferenceProvisioner, type RunningReference } from '../../src/index.js';
import { describeConformance } from '../../src/vitest.js';
import { RULES } from '../../src/rules/index.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
let served: RunningReference | undefined;

// A provisioner's own suite: it starts its server, and the kit judges it rule by rule as vitest tests.
describeConformance('the reference, as a provisioner would test itself', {
  url: async () => {
    served = await startReferenceProvisioner({ mode: 'async', workMs: 200 });
    return served.url;
  },
  profile: 'quick',
  properties: false,
  burst: 6,
  // The suite's own option, never passed to the run (which refuses options it does not know).
  timeoutMs: 120_000,
});

afterAll(async () => {
  await served?.close();
});

interface VitestJson {
  testResults: Array<{ assertionResults: Array<{ title: string; status: string; failureMessages: string[] }> }>;
}

describe('describeConformance against a broken provisioner', () => {
  it('fails the test of the broken rule with its evidence, skips what was not exercised, passes the rest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pc-vitest-'));
    const suite = join(dir, 'provisioner.test.ts');
    writeFileSync(
      suite,
      [
        `import { afterAll } from 'vitest';`,
        `import { startReferenceProvisioner } from ${JSON.stringify(join(ROOT, 'src', 'index.ts'))};`,
        `import { describeConformance } from ${JSON.stringify(join(ROOT, 'src', 'vitest.ts'))};`,
        `let served;`,
        `describeConformance('broken', { url: async () => (served = await startReferenceProvisioner({ mode: 'sync', fault: 'missing-result' })).url, profile: 'quick', properties: false, burst: 4 });`,
        `afterAll(() => served?.close());`,
      ].join('\n'),
    );
    const output = join(dir, 'results.json');
    await new Promise<void>((done) => {
      execFile(
        process.execPath,
        [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', suite, '--root', dir, '--reporter=json', `--outputFile=${output}`],
        { cwd: dir, timeout: 120_000 },
        () => done(),
      );
    });
    const results = (JSON.parse(readFileSync(output, 'utf8')) as VitestJson).testResults.flatMap((file) => file.assertionResults);
    const status = (title: string): string | undefined => results.find((result) => result.title === title)?.status;
    expect(results).toHaveLength(RULES.length);
    expect(status('final.results-match-changes')).toBe('failed');
    expect(results.find((result) => result.title === 'final.results-match-changes')!.failureMessages.join('\n')).toContain('repeat: curl');
    expect(status('answer.status')).toBe('passed');
    // A sync provisioner never answers 202: the async rules are not applicable, and are skipped, never passed.
    expect(status('accepted.operation-id-uuid')).toBe('skipped');
    expect(results.filter((result) => result.status === 'failed').map((result) => result.title)).toEqual(['final.results-match-changes']);
  }, 150_000);
});
