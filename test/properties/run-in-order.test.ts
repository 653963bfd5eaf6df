import { describe, expect, it } from 'vitest';
import type { PropertyRun } from '../../suites/properties/check/property-run.js';
import { RunInOrder } from '../../suites/properties/check/run-in-order.js';
import type { PropertySpec } from '../../suites/properties/property.js';
import { broken, Gate, HELD, integerSpec, propertyRuns, settled, shrinkOne } from './property-run-support.js';

const runOf = propertyRuns();

/** A run whose arbitrary tells `inOrder` of each candidate fast-check takes from its stream, `width` places ahead. */
function inOrderRun(spec: PropertySpec<number>, width: number, replaying = false): { run: PropertyRun<number>; inOrder: RunInOrder<number> } {
  let inOrder: RunInOrder<number> | undefined;
  const run = runOf(spec, { ahead: { width, start: (batch, w) => inOrder!.start(batch, w) }, ...(replaying && { settings: { seed: 7, path: '0' } }) });
  inOrder = new RunInOrder(run);
  return { run, inOrder };
}

describe('shrink candidates run in order', () => {
  it('start as fast-check takes them from its stream, no more than the width at once, the next as a place frees', async () => {
    const gate = new Gate();
    const { run, inOrder } = inOrderRun(integerSpec(gate.runCase), 2);
    const { candidates } = shrinkOne(run.arbitrary, 500);
    await settled();
    expect(gate.running).toEqual([candidates[0]![0], candidates[1]![0]]);
    expect(inOrder.verdictOf(candidates[2]!)).toBeDefined();
    gate.end(candidates[0]![0]!, HELD);
    await settled();
    expect(gate.running).toEqual([candidates[1]![0], candidates[2]![0]]);
    expect(gate.peak).toBe(2);
  });

  it('give fast-check each candidate’s own verdict, and none for a batch never taken from the stream', async () => {
    const gate = new Gate();
    const { run, inOrder } = inOrderRun(integerSpec(gate.runCase), 2);
    const { candidates } = shrinkOne(run.arbitrary, 500);
    await settled();
    const first = inOrder.verdictOf(candidates[0]!);
    gate.end(candidates[0]![0]!, broken(1));
    await expect(first).resolves.toMatchObject({ ran: true, record: { value: candidates[0]![0], verdict: broken(1) } });
    expect(inOrder.verdictOf([123_456])).toBeUndefined();
  });

  it('leave a candidate still waiting for its place when shrinking’s window closes without a record', async () => {
    const gate = new Gate();
    const { run, inOrder } = inOrderRun(integerSpec(gate.runCase), 2);
    const { candidates } = shrinkOne(run.arbitrary, 500);
    await settled();
    const waiting = inOrder.verdictOf(candidates[2]!);
    run.state.shrinkEndsAt = Number.NEGATIVE_INFINITY;
    gate.end(candidates[0]![0]!, HELD);
    await expect(waiting).resolves.toBeUndefined();
    expect(gate.running).toEqual([candidates[1]![0]]);
  });

  it('run nothing while replaying', async () => {
    const sent: number[] = [];
    const { run } = inOrderRun(integerSpec(async (n) => (sent.push(n), HELD)), 2, true);
    shrinkOne(run.arbitrary, 500);
    await settled();
    expect(sent).toEqual([]);
  });

  it('stop the property on a kit error, whether or not fast-check asks for the verdict', async () => {
    const { run } = inOrderRun(integerSpec(async () => Promise.reject(new Error('bad command'))), 2);
    shrinkOne(run.arbitrary, 500);
    await settled();
    await settled();
    expect(run.state.over).toBe(true);
    expect(run.state.kitFault?.message).toContain('bad command');
  });
});
