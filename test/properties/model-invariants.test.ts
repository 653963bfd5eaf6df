import { describe, expect, it } from 'vitest';
import type { LoadedChangeSet } from '../../src/config/change-sets.js';
import { judgeRules } from '../../src/rules/index.js';
import type { Exchange } from '../../src/transcript/exchange.js';
import { checkOperationReads, checkUnknownRead } from '../../suites/properties/model/invariants.js';
import { emptyModel, type TrackedOperation } from '../../suites/properties/model/model.js';
import { joinReplay, splitReplay } from '../../suites/properties/model/replay-path.js';
import { resultsProblems } from '../../suites/properties/model/results-match.js';
import { context, IN_PROGRESS, OP_ID, shopDbFinal, TranscriptBuilder } from '../support/transcript-builder.js';

const SHOP_DB_SET: LoadedChangeSet = { name: 'shop-db', file: 'shop-db.json', text: '{}', changes: [{ id: 'shop-db', environment: 'test' }], lockKey: 'shop' };

/** A hand-built timeline of one operation, checked step by step by the model and as a whole by the rules. */
class Timeline {
  readonly builder = new TranscriptBuilder();
  readonly op: TrackedOperation;
  readonly seen: string[] = [];

  constructor() {
    const accepted = this.builder.post('apply', { at: 0, status: 202, body: { operationId: OP_ID } });
    this.op = { ordinal: 1, id: OP_ID, kind: 'apply', changeSet: SHOP_DB_SET, accepted, forgotten: false, lost: false };
  }

  /** One command's reads: all recorded first, then checked together, as a command does. */
  step(...reads: Array<(builder: TranscriptBuilder) => Exchange>): this {
    const exchanges = reads.map((read) => read(this.builder));
    this.seen.push(...checkOperationReads(this.op, exchanges).map((v) => v.ruleId));
    return this;
  }

  /** The rules among `ids` that the run-wide judges find broken. */
  judged(ids: readonly string[]): string[] {
    return judgeRules(this.builder.transcript, context())
      .filter((r) => ids.includes(r.id) && (r.status === 'fail' || r.status === 'warn'))
      .map((r) => r.id);
  }
}

const LIFECYCLE = ['operation.no-in-progress-after-final', 'operation.final-stable', 'operation.not-lost', 'operation.in-progress-results-empty', 'final.results-match-changes'];

function read(at: number, took: number, status: number, body?: unknown): (builder: TranscriptBuilder) => Exchange {
  return (builder) => builder.read(OP_ID, { at, took, status, body });
}

describe('the model agrees with the rules on happens-before', () => {
  it('does not blame an in_progress answer to a read sent before the final answer arrived, even when it arrives later', () => {
    const timeline = new Timeline().step(read(10, 5, 200, shopDbFinal()), read(11, 30, 200, IN_PROGRESS));
    expect(timeline.seen).toEqual([]);
    expect(timeline.judged(LIFECYCLE)).toEqual([]);
  });

  it('blames an in_progress answer to a read sent after the final answer arrived', () => {
    const timeline = new Timeline().step(read(10, 5, 200, shopDbFinal())).step(read(20, 5, 200, IN_PROGRESS));
    expect(timeline.seen).toEqual(['operation.no-in-progress-after-final']);
    expect(timeline.judged(LIFECYCLE)).toEqual(timeline.seen);
  });

  it('blames a 404 that ended before any read with a final answer was sent, and not one that overlapped it', () => {
    const lost = new Timeline().step(read(1, 2, 404, { error: 'no such operation' }), read(3, 2, 200, shopDbFinal()));
    expect(lost.seen).toEqual(['operation.not-lost']);
    expect(lost.judged(LIFECYCLE)).toEqual(lost.seen);
    const overlapping = new Timeline().step(read(1, 20, 404, { error: 'no such operation' }), read(3, 2, 200, shopDbFinal()));
    expect(overlapping.seen).toEqual([]);
    expect(overlapping.judged(LIFECYCLE)).toEqual([]);
  });

  it('allows a 404 after the final answer (forgotten), but not another final answer', () => {
    const forgotten = new Timeline().step(read(10, 5, 200, shopDbFinal())).step(read(20, 5, 404, { error: 'gone' }));
    expect(forgotten.seen).toEqual([]);
    expect(forgotten.op.forgotten).toBe(true);
    expect(forgotten.judged(LIFECYCLE)).toEqual([]);
    const changed = new Timeline().step(read(10, 5, 200, shopDbFinal())).step(read(20, 5, 200, shopDbFinal('failed')));
    expect(changed.seen).toEqual(['operation.final-stable']);
    expect(changed.judged(LIFECYCLE)).toEqual(changed.seen);
  });

  it('holds in_progress answers to empty results and final answers to one result per change', () => {
    const partial = new Timeline().step(read(5, 5, 200, { ...IN_PROGRESS, results: shopDbFinal().results }));
    expect(partial.seen).toEqual(['operation.in-progress-results-empty']);
    expect(partial.judged(LIFECYCLE)).toEqual(partial.seen);
    const missing = new Timeline().step(read(5, 5, 200, { ...shopDbFinal(), results: [] }));
    expect(missing.seen).toEqual(['final.results-match-changes']);
    expect(missing.judged(LIFECYCLE)).toEqual(missing.seen);
  });

  it('says nothing about transient answers', () => {
    const timeline = new Timeline().step(read(10, 5, 200, shopDbFinal())).step(read(20, 5, 503, '<html>busy</html>'));
    expect(timeline.seen).toEqual([]);
  });
});

describe('unknown ids', () => {
  it('remembers an id answered 404 and says so when a later read of it answers otherwise', () => {
    const builder = new TranscriptBuilder();
    const model = emptyModel();
    const id = '00000000-0000-4000-8000-000000000000';
    expect(checkUnknownRead(model, id, builder.read(id, { tag: 'read-unknown', status: 404, body: { error: 'no' } }))).toEqual([]);
    const [violation] = checkUnknownRead(model, id, builder.read(id, { tag: 'read-unknown', status: 200, body: IN_PROGRESS }));
    expect(violation).toMatchObject({ ruleId: 'operation.unknown-404' });
    expect(violation!.note).toContain(`second read of the unknown id ${id}`);
  });
});

describe('results against changes', () => {
  const changes = [
    { id: 'a', environment: 'test' },
    { id: 'b', environment: 'test' },
  ];
  it('names missing, doubled and extra results', () => {
    expect(resultsProblems([{ id: 'a', environment: 'test' }, { id: 'b', environment: 'test' }], changes)).toEqual([]);
    expect(resultsProblems([{ id: 'a', environment: 'test' }, { id: 'a', environment: 'test' }, { id: 'c', environment: 'prod' }], changes)).toEqual([
      '2 results for "a" in "test"',
      'no result for "b" in "test"',
      'an extra result "c" in "prod"',
    ]);
  });
});

describe('replay of a counterexample', () => {
  it('carries the commands\' replay path in the path after an @, and only when there is one', () => {
    expect(joinReplay('3:1:0', 'CDC:H')).toBe('3:1:0@CDC:H');
    expect(splitReplay('3:1:0@CDC:H')).toEqual({ path: '3:1:0', replayPath: 'CDC:H' });
    expect(joinReplay('3', ':')).toBe('3');
    expect(splitReplay('3:1')).toEqual({ path: '3:1' });
    expect(splitReplay(undefined)).toEqual({});
  });
});
