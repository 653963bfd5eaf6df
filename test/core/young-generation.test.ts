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

  it("stays as it was in an observer's process, the proxy's thread and the judges' thread, once the judges started (built)", () => {
    // A process of its own, as the command line is: V8's flags are the whole process's. As the command line does,
    // it keeps the young generation small before it loads the kit.
    const dist = (file: string): string => JSON.stringify(join(ROOT, 'dist', 'src', file));
    const script = `
      import { getHeapSpaceStatistics } from 'node:v8';
      import { keepYoungGenerationSmall } from ${dist('core/young-generation.js')};
      const newSpace = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size / 1048576;
      keepYoungGenerationSmall();
      const { startJudging } = await import(${dist('observe/judge-worker-client.js')});
      const { observedContext } = await import(${dist('observe/observe.js')});
      const { maxOperationDurationField } = await import(${dist('config/fields.js')});
      const before = newSpace();
      const judging = startJudging(
        { context: observedContext({ answerTimeoutMs: 10000, pollIntervalMs: 10000, maxOperationDuration: maxOperationDurationField('PT1M', undefined) }, 0), selection: {}, changesPointer: '/changes' },
        { onFailure: (what, error) => console.error(what, error.message) },
      );
      await judging.tally();
      const kept = [];
      for (let i = 0; i < 3e6; i++) { const garbage = { i, text: 'x' + i }; if (i % 1000 === 0) kept.push(garbage); }
      console.log(JSON.stringify({ where: judging.where, before, after: newSpace() }));
      await judging.close();
    `;
    // A file, not --eval: the worker thread takes the process's flags, and --input-type is refused there.
    const folder = mkdtempSync(join(tmpdir(), 'young-generation-'));
    const file = join(folder, 'observer.mjs');
    writeFileSync(file, script);
    const child = spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: 60_000 });
    rmSync(folder, { recursive: true, force: true });
    expect(child.stderr).toBe('');
    const seen = JSON.parse(child.stdout.trim()) as { where: string; before: number; after: number };
    expect(seen.where).toBe('worker thread');
    // Left to grow after the worker's heap was built, it reaches 32 MB (16 MB a semi-space) under this garbage.
    expect(seen.before).toBeLessThanOrEqual(8);
    expect(seen.after).toBe(seen.before);
  });
});
