import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { timeBudgetOf } from '../../src/config/property-time-limit.js';
import { resolveRunConfig } from '../../src/config/run-config.js';
import type { SuiteProgress } from '../../src/core/suite-progress.js';
import { startReferenceProvisioner, type RunningReference } from '../../src/reference/index.js';
import { driveAndJudge } from '../../src/runner/drive-and-judge.js';
import { SITUATION_SUITES } from '../../src/transcript/situations.js';
import { PROPERTIES } from '../../suites/properties/index.js';

class Recorder implements SuiteProgress {
  readonly started = new Map<string, number | undefined>();
  readonly done = new Map<string, number>();
  readonly ended = new Map<string, string>();
  suiteStarted(name: string, total?: number): void {
    this.started.set(name, total);
  }
  casesDone(name: string, done: number): void {
    this.done.set(name, done);
  }
  suiteEnded(name: string, summary: string): void {
    this.ended.set(name, summary);
  }
}

describe('a run with a progress listener', () => {
  let reference: RunningReference;
  beforeAll(async () => {
    reference = await startReferenceProvisioner({ mode: 'async', workMs: 200 });
  });
  afterAll(async () => {
    await reference.close();
  });

  it('hears every suite start, count its cases and end: the scenarios, the burst, each property and the restart', async () => {
    const config = await resolveRunConfig({
      options: { url: reference.url, pollInterval: 'PT0.1S', answerTimeout: 'PT5S', burst: 3, timeLimit: 'PT2M', property: 'property/malformed-json', maxExamples: '3' },
      env: {},
      cwd: mkdtempSync(join(tmpdir(), 'pc-progress-')),
    });
    const properties = { ...config.properties, suites: PROPERTIES.filter((suite) => config.properties.names.includes(suite.name)) };
    const progress = new Recorder();
    const outcome = await driveAndJudge({
      ...config,
      url: reference.url,
      timeBudget: timeBudgetOf(config),
      properties,
      burst: { calls: config.burst, applies: config.burstApply },
      restart: { with: { describe: 'the test restarts its reference', run: () => reference.restart() }, timeout: config.restartTimeout },
      progress,
    });
    const names = ['scenario/plan-and-apply', 'scenario/unknown-operations', 'scenario/malformed-ids', SITUATION_SUITES.burst, 'property/malformed-json', SITUATION_SUITES.lateReads, SITUATION_SUITES.restart];
    expect([...progress.started.keys()].sort()).toEqual([...names].sort());
    expect([...progress.ended.keys()].sort()).toEqual([...names].sort());
    expect(progress.started.get(SITUATION_SUITES.burst)).toBe(3);
    expect(progress.started.get('property/malformed-json')).toBe(3);
    // Nothing stopped this run: every suite ended all the cases it announced.
    for (const name of names) expect(progress.done.get(name), name).toBe(progress.started.get(name));
    expect(progress.ended.get('property/malformed-json')).toMatch(/^3 of 3 cases: held over 3 cases/);
    expect(progress.ended.get(SITUATION_SUITES.burst)).toBe('3 of 3 cases');
    expect(outcome.budget).toMatchObject({ exhausted: false, notExercised: [], properties: [{ name: 'property/malformed-json', casesJudged: 3, casesAsked: 3, interrupted: false }] });
    expect(outcome.conclusions.some((conclusion) => conclusion.includes('--time-limit'))).toBe(false);
  }, 60_000);
});
