import { describe, expect, it } from 'vitest';
import { RunAhead } from '../../suites/properties/check/run-ahead.js';
import type { PropertyRun } from '../../suites/properties/check/property-run.js';
import type { PropertySpec } from '../../suites/properties/property.js';
import { broken, Gate, HELD, integerSpec, propertyRuns, settled, shrinkOne } from './property-run-support.js';

const runOf = propertyRuns();

/** A run whose arbitrary opens each failing node to `ahead`, `width` candidates at once, with a failure already seen. */
function aheadRun(spec: PropertySpec<number>, width: number, replaying = false): { run: PropertyRun<number>; ahead: RunAhead<number> } {
  let ahead: RunAhead<number> | undefined;
  const run = runOf(spec, { ahead: { width, opened: (node, w) => ahead!.opened(node, w) }, ...(replaying && { settings: { seed: 7, path: '0' } }) });
  ahead = new RunAhead(run);
  run.state.lastFailure = { value: 500, caseSuite: 'property/unit#1', verdict: broken(500) };
  return { run, ahead };
}

describe('shrink candidates run ahead', () => {
  it('start as soon as a failing case is opened, as many as its width and never more', async () => {
    const gate = new Gate();
    const { run } = aheadRun(integerSpec(gate.runCase, { candidatesFromValue: true }), 3);
    const { candidates } = shrinkOne(run.arbitrary, 500);
    await settled();
    expect(gate.running).toHaveLength(3);
    expect(gate.running).toContain(candidates[0]![0]);
    // One ends: its place goes to the next candidate likeliest to be asked for.
    gate.end(gate.running[0]!, HELD);
    await settled();
    await settled();
    expect(gate.running).toHaveLength(3);
    expect(gate.peak).toBe(3);
  });

  it('give fast-check the verdict of a candidate that ran for it, and start one not chosen yet when asked', async () => {
    const gate = new Gate();
    const { run, ahead } = aheadRun(integerSpec(gate.runCase, { candidatesFromValue: true }), 2);
    const { candidates } = shrinkOne(run.arbitrary, 500);
    await settled();
    const first = ahead.verdictOf(candidates[0]!)!;
    gate.end(candidates[0]![0]!, broken(candidates[0]![0]!));
    await expect(first).resolves.toMatchObject({ ran: true, record: { value: candidates[0]![0], verdict: broken(candidates[0]![0]!) } });
    expect(run.state.judged + run.state.shrinkJudged).toBe(0);
  });

  it('run a candidate the same as one run already no more: it gets that verdict, marked as not its own run', async () => {
    const sent: number[] = [];
    const { run, ahead } = aheadRun(integerSpec(async (n) => (sent.push(n), HELD), { candidatesFromValue: true, caseKey: () => 'the same case' }), 4);
    const { candidates } = shrinkOne(run.arbitrary, 500);
    await settled();
    const verdicts = await Promise.all(candidates.slice(0, 3).map((candidate) => ahead.verdictOf(candidate)));
    expect(sent).toHaveLength(1);
    expect(verdicts.filter((verdict) => verdict?.ran)).toHaveLength(1);
    expect(verdicts.every((verdict) => verdict?.record.value === sent[0])).toBe(true);
  });

  it('run nothing while replaying, and answer nothing before a failure was seen', async () => {
    const sent: number[] = [];
    const spec = integerSpec(async (n) => (sent.push(n), HELD), { candidatesFromValue: true });
    const { run } = aheadRun(spec, 3, true);
    shrinkOne(run.arbitrary, 500);
    await settled();
    expect(sent).toEqual([]);

    const fresh = aheadRun(spec, 3);
    fresh.run.state.lastFailure = undefined;
    const { candidates } = shrinkOne(fresh.run.arbitrary, 500);
    expect(fresh.ahead.verdictOf(candidates[0]!)).toBeUndefined();
  });

  it('leave a candidate asked for once shrinking’s window closed without a record, and stop the property on a kit error', async () => {
    const gate = new Gate();
    const { run, ahead } = aheadRun(integerSpec(gate.runCase, { candidatesFromValue: true }), 2);
    run.state.shrinkEndsAt = Number.NEGATIVE_INFINITY;
    const { candidates } = shrinkOne(run.arbitrary, 500);
    await expect(ahead.verdictOf(candidates[0]!)).resolves.toBeUndefined();
    expect(gate.running).toEqual([]);

    const failing = aheadRun(integerSpec(async () => Promise.reject(new Error('bad arbitrary')), { candidatesFromValue: true }), 2);
    const shrunk = shrinkOne(failing.run.arbitrary, 500);
    await expect(failing.ahead.verdictOf(shrunk.candidates[0]!)).rejects.toThrow('the kit failed while running a case: bad arbitrary');
    expect(failing.run.state.over).toBe(true);
    expect(failing.run.state.kitFault?.message).toContain('bad arbitrary');
  });
});
