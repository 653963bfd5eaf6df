import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keepItSmallAfterAThreadStarted, keepYoungGenerationSmall } from '../../src/core/young-generation.js';
import { ROOT } from '../e2e/run-cli.js';

describe("the command line's young generation", () => {
  it('stops it growing, unless the user sized it with a flag of their own', () => {
    const set: string[] = [];
    const setFlags = (flags: string): void => void set.push(flags);
    expect(keepYoungGenerationSmall(['--max-semi-space-size=64'], '', setFlags)).toBe(false);
    expect(keepYoungGenerationSmall([], '--max-old-space-size=512 --max_semi_space_size=8', setFlags)).toBe(false);
    expect(set).toEqual([]);
    expect(keepItSmallAfterAThreadStarted(setFlags)).toBe(false);
    expect(keepYoungGenerationSmall([], '', setFlags)).toBe(true);
    expect(keepItSmallAfterAThreadStarted(setFlags)).toBe(true);
    expect(set).toEqual(['--semi-space-growth-factor=1', '--semi-space-growth-factor=1']);
  });

  it("stays small in an observer's process, the proxy's thread and the judges' thread, once the judges started (built)", () => {
    // A process of its own, as the command line is: V8's flags are the whole process's.
    const script = `
      import { getHeapSpaceStatistics } from 'node:v8';
      import { keepYoungGenerationSmall } from ${JSON.stringify(join(ROOT, 'dist/src/core/young-generation.js'))};
      import { startJudging } from ${JSON.stringify(join(ROOT, 'dist/src/observe/judge-worker-client.js'))};
      import { observedContext } from ${JSON.stringify(join(ROOT, 'dist/src/observe/observe.js'))};
      import { maxOperationDurationField } from ${JSON.stringify(join(ROOT, 'dist/src/config/fields.js'))};
      const newSpace = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size / 1048576;
      keepYoungGenerationSmall();
      const judging = startJudging(
        { context: observedContext({ answerTimeoutMs: 10000, pollIntervalMs: 10000, maxOperationDuration: maxOperationDurationField('PT1M', undefined) }, 0), selection: {}, changesPointer: '/changes' },
        { onFailure: (what, error) => console.error(what, error.message) },
      );
      await judging.tally();
      const kept = [];
      for (let i = 0; i < 3e6; i++) { const garbage = { i, text: 'x' + i }; if (i % 1000 === 0) kept.push(garbage); }
      console.log(JSON.stringify({ where: judging.where, newSpaceMb: newSpace() }));
      await judging.close();
    `;
    // A file, not --eval: the worker thread takes the process's flags, and --input-type is refused there.
    const folder = mkdtempSync(join(tmpdir(), 'young-generation-'));
    const file = join(folder, 'observer.mjs');
    writeFileSync(file, script);
    const child = spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: 60_000 });
    rmSync(folder, { recursive: true, force: true });
    expect(child.stderr).toBe('');
    const seen = JSON.parse(child.stdout.trim()) as { where: string; newSpaceMb: number };
    expect(seen.where).toBe('worker thread');
    // Its start size is 1 MB a semi-space; left to grow, it reaches 16 MB each (32 MB).
    expect(seen.newSpaceMb).toBeLessThanOrEqual(4);
  });
});
