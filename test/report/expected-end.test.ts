import { describe, expect, it } from 'vitest';
import { expectedEnd, expectedEndText, PhaseBoard, phaseOf, phasesToCome, wallClock, type RunPlan } from '../../src/report/expected-end.js';

const MINUTE = 60_000;
// A virtual clock: the run starts at T0, and every time below is counted from it.
const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
const at = (minutes: number): number => T0 + minutes * MINUTE;

/** Certify against a provisioner whose work takes minutes: PT15M operations, properties, a restart. */
const CERTIFY: RunPlan = { operationMs: 15 * MINUTE, properties: true, propertyChain: 2, restartTimeoutMs: 2 * MINUTE };

function board(events: ReadonlyArray<[suite: string, startedAt: number, ended?: boolean]>): PhaseBoard {
  const phases = new PhaseBoard();
  for (const [suite, startedAt, ended] of events) {
    phases.started(suite, startedAt);
    if (ended === true) phases.ended(suite);
  }
  return phases;
}

describe('the expected end of a run', () => {
  it('at the start: the restart, then the burst, then the properties two operation-lengths', () => {
    const plan: RunPlan = { ...CERTIFY, burst: true };
    const phases = board([['scenario/plan-and-apply', at(0)]]);
    const end = expectedEnd(plan, phases, [at(0) + 15 * MINUTE], at(1));
    // The restart by 3 (its 2 minutes), the burst by 18, the properties two operation-lengths after: 48.
    expect(end).toEqual({ at: at(48), bound: 'properties' });
    expect(phasesToCome(plan, phases)).toEqual(['restart', 'burst', 'properties']);
  });

  it('once the restart runs, its own time limit, then what follows it', () => {
    const plan: RunPlan = { ...CERTIFY, burst: true };
    const phases = board([['scenario/plan-and-apply', at(0)], ['scenario/restart', at(0.5)]]);
    // Restart by 2.5, burst by 17.5, properties by 47.5.
    expect(expectedEnd(plan, phases, [], at(1))).toEqual({ at: at(47.5), bound: 'properties' });
    expect(phasesToCome(plan, phases)).toEqual(['burst', 'properties']);
    // A restart alone (no burst, no properties) is bounded by its time limit and the scenarios' chain.
    const alone: RunPlan = { operationMs: MINUTE / 60, properties: false, propertyChain: 0, restartTimeoutMs: 2 * MINUTE };
    expect(expectedEnd(alone, board([['scenario/restart', at(0)]]), [], at(0.5))).toEqual({ at: at(2), bound: 'restart' });
  });

  it('follows the properties from when they started, however their cases go', () => {
    const phases = board([['scenario/burst', at(0), true], ['property/generated-plans', at(10)], ['property/model-based-runs', at(10)]]);
    const plan: RunPlan = { operationMs: 15 * MINUTE, properties: true, propertyChain: 2 };
    expect(expectedEnd(plan, phases, [at(12) + 15 * MINUTE], at(13))).toEqual({ at: at(40), bound: 'properties' });
    // Past the chain (a failure being shrunk): the deadlines in flight are what is left to say.
    expect(expectedEnd(plan, phases, [at(45) + 15 * MINUTE], at(46))).toEqual({ at: at(60), bound: 'deadlines' });
  });

  it('a longer restart timeout pushes back everything after it', () => {
    const plan: RunPlan = { ...CERTIFY, restartTimeoutMs: 20 * MINUTE };
    expect(expectedEnd(plan, board([['scenario/plan-and-apply', at(0)]]), [], at(1))).toEqual({ at: at(51), bound: 'properties' });
  });

  it('never later than the time limit', () => {
    const phases = board([['scenario/burst', at(0)]]);
    expect(expectedEnd({ ...CERTIFY, timeLimitEndsAt: at(30) }, phases, [at(15)], at(1))).toEqual({ at: at(30), bound: 'time limit' });
  });

  it('without an operation-length, only the deadlines in flight; nothing when there are none', () => {
    const plan: RunPlan = { operationMs: 0, properties: false, propertyChain: 0 };
    const phases = board([['scenario/plan-and-apply', at(0)]]);
    expect(expectedEnd(plan, phases, [at(3), at(5), at(4)], at(1))).toEqual({ at: at(5), bound: 'deadlines' });
    expect(expectedEnd(plan, phases, [], at(1))).toBeUndefined();
  });

  it('puts suites in their phases', () => {
    expect(['scenario/burst', 'scenario/restart', 'scenario/late-reads', 'scenario/repeat-apply', 'property/model-based-runs'].map(phaseOf)).toEqual([
      'burst',
      'restart',
      'late-reads',
      'scenarios',
      'properties',
    ]);
  });
});

describe('the expected end as text', () => {
  it('says the wall-clock time, how far off it is, and what bounds it', () => {
    expect(expectedEndText({ at: at(3), bound: 'restart' }, CERTIFY, at(1))).toBe(`ends by ${wallClock(at(3))} at the latest, in 2m00s (restart PT2M)`);
    expect(expectedEndText({ at: at(40), bound: 'properties' }, CERTIFY, at(13))).toBe(`ends by ${wallClock(at(40))} at the latest, in 27m00s (properties 2×PT15M)`);
    expect(expectedEndText({ at: at(2), bound: 'deadlines' }, CERTIFY, at(2.5))).toBe(`ends by ${wallClock(at(2))} at the latest, any moment now (deadlines)`);
  });

  it('writes the time as hours, minutes and seconds', () => {
    expect(wallClock(new Date(2026, 0, 5, 7, 4, 9, 500).getTime())).toBe('07:04:09');
  });
});
