import { afterEach, describe, expect, it } from 'vitest';
import { ProvisionerClient } from '../../src/client/client.js';
import type { LoadedChangeSet } from '../../src/config/change-sets.js';
import { Poller } from '../../src/poller/poller.js';
import { judgeRules } from '../../src/rules/index.js';
import type { ChangeSetInfo, JudgeContext } from '../../src/core/judge-context.js';
import type { Exchange } from '../../src/transcript/exchange.js';
import { judgeTranscript } from '../../suites/properties/judge-case.js';
import { CaseDriver } from '../../suites/properties/model/case-driver.js';
import { MODEL_CASE_RULES } from '../../suites/properties/model/case-rules.js';
import { judgeStep } from '../../suites/properties/model/judge-step.js';
import { noteReads, type TrackedOperation } from '../../suites/properties/model/model.js';
import { commandsShrunk, joinReplay, splitReplay } from '../../suites/properties/model/replay-path.js';
import { RuleViolation } from '../../suites/properties/model/violation.js';
import type { PropertyContext } from '../../suites/properties/property.js';
import { context, IN_PROGRESS, OP_ID, SHOP_DB, shopDbFinal, TranscriptBuilder } from '../support/transcript-builder.js';
import { propertyHarness } from './support.js';
import { givenTimeLimit } from '../support/time-limit.js';

const SHOP_DB_SET: LoadedChangeSet = { name: 'shop-db', file: 'shop-db.json', text: '{}', changes: [{ id: 'shop-db', environment: 'test' }], lockKey: 'shop' };
const SUITE = 'property/model-based-runs#1';

const clients: ProvisionerClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** A case's driver over a hand-built transcript: nothing is sent, the steps record their exchanges by hand. */
function driverOver(builder: TranscriptBuilder, judgeContext: JudgeContext): CaseDriver {
  const client = new ProvisionerClient({ baseUrl: builder.baseUrl, transcript: builder.transcript });
  clients.push(client);
  const signal = new AbortController().signal;
  const settings = { pollIntervalMs: judgeContext.pollIntervalMs, maxOperationDurationMs: judgeContext.maxOperationDuration.ms, answerTimeoutMs: 1000, concurrentReaders: 0, readAfterFinal: false };
  const propertyContext: PropertyContext = {
    client,
    poller: new Poller(client, settings, undefined, signal),
    changeSets: [SHOP_DB_SET],
    planOnly: false,
    changesPointer: '/changes',
    submitWaitMs: 1000,
    answerTimeoutMs: 1000,
    signal,
    concluded: () => undefined,
    judgeContext,
    registerChangeSet: () => undefined,
    settings: { maxExamples: 1, timeLimit: givenTimeLimit(1000), allowApplyGenerated: false },
  };
  return new CaseDriver(propertyContext, SUITE, signal);
}

/**
 * A hand-built timeline of one operation, judged after every step exactly as a model-based case judges itself
 * (judgeStep: the run's judges over the case's exchanges so far), and as a whole by the run-wide judgement.
 */
class Timeline {
  readonly builder = new TranscriptBuilder();
  readonly op: TrackedOperation;
  private readonly driver: CaseDriver;
  private readonly judgeContext: JudgeContext;
  private steps = 0;
  /** The rules that stopped the case, at the first step after which the judges found one broken. */
  stoppedBy: string[] = [];
  stopNotes: string[] = [];

  constructor(changeSets: ChangeSetInfo[] = [SHOP_DB]) {
    this.judgeContext = context({ changeSets });
    this.driver = driverOver(this.builder, this.judgeContext);
    const accepted = this.builder.post('apply', { at: 0, status: 202, body: { operationId: OP_ID }, suite: SUITE });
    this.op = { ordinal: 1, id: OP_ID, kind: 'apply', changeSet: SHOP_DB_SET, accepted, endsBy: 1 };
  }

  /** One command's exchanges: all recorded first, then judged together, as a command is once its reads have landed. */
  async step(...exchanges: Array<(builder: TranscriptBuilder) => Exchange>): Promise<this> {
    const recorded = exchanges.map((record) => record(this.builder));
    noteReads(this.op, recorded.filter((e) => e.operationId === OP_ID));
    this.steps += 1;
    if (this.stoppedBy.length > 0) return this;
    try {
      await judgeStep(this.driver, this.steps, `step ${this.steps}`);
    } catch (error) {
      if (!(error instanceof RuleViolation)) throw error;
      expect(error.step).toBe(this.steps);
      this.stoppedBy = error.broken.map((rule) => rule.id);
      this.stopNotes = error.broken.map((rule) => rule.evidence[0]?.note ?? rule.message);
    }
    return this;
  }

  /** The rules a model-based case is judged by that the run-wide judgement finds broken. */
  judgedRunWide(): string[] {
    const judged = judgeTranscript(this.builder.transcript, this.judgeContext, MODEL_CASE_RULES).broken.map((r) => r.id);
    // The run-wide judgement, all rules, says the same of these exchanges.
    const whole = judgeRules(this.builder.transcript, this.judgeContext).filter((r) => r.status === 'fail' || r.status === 'warn').map((r) => r.id);
    expect(whole.filter((id) => !['answer.prompt', 'operation.transient-errors'].includes(id))).toEqual(judged);
    return judged;
  }
}

function read(at: number, took: number, status: number, body?: unknown): (builder: TranscriptBuilder) => Exchange {
  return (builder) => builder.read(OP_ID, { at, took, status, body, suite: SUITE });
}

describe('judged after every step, a case agrees with the rules on happens-before', () => {
  it('does not blame an in_progress answer to a read sent before the final answer arrived, even when it arrives later', async () => {
    const timeline = await new Timeline().step(read(10, 5, 200, shopDbFinal()), read(11, 30, 200, IN_PROGRESS));
    expect(timeline.stoppedBy).toEqual([]);
    expect(timeline.judgedRunWide()).toEqual([]);
  });

  it('blames an in_progress answer to a read sent after the final answer arrived', async () => {
    const timeline = await (await new Timeline().step(read(10, 5, 200, shopDbFinal()))).step(read(20, 5, 200, IN_PROGRESS));
    expect(timeline.stoppedBy).toEqual(['operation.no-in-progress-after-final']);
    expect(timeline.judgedRunWide()).toEqual(timeline.stoppedBy);
  });

  it('blames a 404 that ended before any read with a final answer was sent, and not one that overlapped it', async () => {
    const lost = await new Timeline().step(read(1, 2, 404, { error: 'no such operation' }), read(3, 2, 200, shopDbFinal()));
    expect(lost.stoppedBy).toEqual(['operation.not-lost']);
    expect(lost.judgedRunWide()).toEqual(lost.stoppedBy);
    const overlapping = await new Timeline().step(read(1, 20, 404, { error: 'no such operation' }), read(3, 2, 200, shopDbFinal()));
    expect(overlapping.stoppedBy).toEqual([]);
    expect(overlapping.judgedRunWide()).toEqual([]);
  });

  it('would blame a 404 whose excusing final answer is still in flight: the reason a step is judged only when none is', async () => {
    // The final read was sent first and lands last; judged before it lands, the 404 looks like lost work.
    const builder = new TranscriptBuilder();
    builder.post('apply', { at: 0, status: 202, body: { operationId: OP_ID } });
    builder.read(OP_ID, { at: 3, took: 2, status: 404, body: { error: 'no such operation' } });
    expect(judgeTranscript(builder.transcript, context(), MODEL_CASE_RULES).broken.map((r) => r.id)).toEqual(['operation.not-lost']);
    builder.read(OP_ID, { at: 1, took: 20, status: 200, body: shopDbFinal() });
    expect(judgeTranscript(builder.transcript, context(), MODEL_CASE_RULES).broken).toEqual([]);
  });

  it('allows a 404 after the final answer (forgotten), but not another final answer', async () => {
    const forgotten = await (await new Timeline().step(read(10, 5, 200, shopDbFinal()))).step(read(20, 5, 404, { error: 'gone' }));
    expect(forgotten.stoppedBy).toEqual([]);
    expect(forgotten.op.ended).toBe('final');
    expect(forgotten.judgedRunWide()).toEqual([]);
    const changed = await (await new Timeline().step(read(10, 5, 200, shopDbFinal()))).step(read(20, 5, 200, shopDbFinal('failed')));
    expect(changed.stoppedBy).toEqual(['operation.final-stable']);
    expect(changed.judgedRunWide()).toEqual(changed.stoppedBy);
  });

  it('holds in_progress answers to empty results and final answers to one result per change', async () => {
    const partial = await new Timeline().step(read(5, 5, 200, { ...IN_PROGRESS, results: shopDbFinal().results }));
    expect(partial.stoppedBy).toEqual(['operation.in-progress-results-empty']);
    expect(partial.judgedRunWide()).toEqual(partial.stoppedBy);
    const missing = await new Timeline().step(read(5, 5, 200, { ...shopDbFinal(), results: [] }));
    expect(missing.stoppedBy).toEqual(['final.results-match-changes']);
    expect(missing.judgedRunWide()).toEqual(missing.stoppedBy);
  });

  it('says nothing about transient answers', async () => {
    const timeline = await (await new Timeline().step(read(10, 5, 200, shopDbFinal()))).step(read(20, 5, 503, '<html>busy</html>'));
    expect(timeline.stoppedBy).toEqual([]);
  });
});

describe('unknown ids', () => {
  it('remembers an id answered 404 and says so when a later read of it answers otherwise', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const unknown = (status: number, body: unknown) => (builder: TranscriptBuilder) => builder.read(id, { tag: 'read-unknown', status, body, suite: SUITE });
    const timeline = await new Timeline().step(unknown(404, { error: 'no' }));
    expect(timeline.stoppedBy).toEqual([]);
    await timeline.step(unknown(200, IN_PROGRESS));
    expect(timeline.stoppedBy).toEqual(['operation.unknown-404']);
    expect(timeline.judgedRunWide()).toEqual(timeline.stoppedBy);
    expect(timeline.stopNotes[0]).toMatch(new RegExp(`^a read of the unknown id "${id}" \\S+ after the first answered 200 where the first answered 404: reading it created it`));
  });
});

describe('results against changes', () => {
  const TWO: ChangeSetInfo = { name: 'two', changes: [{ id: 'a', environment: 'test' }, { id: 'b', environment: 'test' }] };
  const result = (id: string, environment: string) => ({ id, environment, outcome: 'succeeded', description: 'Done.' });
  const planAnswer = (results: unknown[]) => (builder: TranscriptBuilder) =>
    builder.post('plan', { status: 200, body: { outcome: 'succeeded', description: 'Done.', results }, changeSet: 'two', suite: SUITE });

  it('holds a final answer with one result per change', async () => {
    const timeline = await new Timeline([SHOP_DB, TWO]).step(planAnswer([result('a', 'test'), result('b', 'test')]));
    expect(timeline.stoppedBy).toEqual([]);
  });

  it('names missing, doubled and extra results', async () => {
    const timeline = await new Timeline([SHOP_DB, TWO]).step(planAnswer([result('a', 'test'), result('a', 'test'), result('c', 'prod')]));
    expect(timeline.stoppedBy).toEqual(['final.results-match-changes']);
    expect(timeline.judgedRunWide()).toEqual(timeline.stoppedBy);
    const [note] = timeline.stopNotes;
    expect(note).toContain('has 2 results');
    expect(note).toContain('no result for');
    expect(note).toContain('extra result');
  });
});

describe('the case driver', () => {
  const harness = propertyHarness();

  it('follows an operation with the kit\'s poller, which notes how the work ended', async () => {
    const { context: propertyContext, transcript } = await harness({ mode: 'async' });
    const driver = new CaseDriver(propertyContext, SUITE, new AbortController().signal);
    const changeSet = propertyContext.changeSets[0]!;
    const accepted = await driver.submit('plan', changeSet);
    expect(accepted.response?.status).toBe(202);
    const op: TrackedOperation = { ordinal: 1, id: String((accepted.response!.json as { value: { operationId: string } }).value.operationId), kind: 'plan', changeSet, accepted, endsBy: 1 };
    const followed = await driver.follow(op);
    expect(followed.conclusion.reason).toBe('final');
    expect(followed.polls.length).toBeGreaterThan(0);
    expect(followed.polls.every((poll) => poll.tag === 'poll' && poll.operationId === op.id)).toBe(true);
    expect(followed.polls.at(-1)!.response?.status).toBe(200);
    // The control plane alone: one read at a time, no probes after the final answer.
    expect(transcript.exchanges.filter((e) => e.request.method === 'GET')).toEqual(followed.polls);
    expect(transcript.events).toEqual([expect.objectContaining({ type: 'poll-ended', operationId: op.id, reason: 'final', acceptedSeq: accepted.seq, conclusion: followed.conclusion.conclusion })]);
  });

  it('stops following at once when the case is stopped, and says so', async () => {
    const { context: propertyContext, transcript } = await harness({ mode: 'async' });
    const stop = new AbortController();
    const driver = new CaseDriver(propertyContext, SUITE, stop.signal);
    const changeSet = propertyContext.changeSets[0]!;
    const accepted = await driver.submit('plan', changeSet);
    const op: TrackedOperation = { ordinal: 1, id: String((accepted.response!.json as { value: { operationId: string } }).value.operationId), kind: 'plan', changeSet, accepted, endsBy: 1 };
    stop.abort();
    const followed = await driver.follow(op);
    expect(followed).toMatchObject({ conclusion: { reason: 'aborted' }, polls: [] });
    expect(transcript.events.map((e) => e.type === 'poll-ended' && e.reason)).toEqual(['aborted']);
  });

  it('is idle only once every read it sent has been recorded', async () => {
    const { context: propertyContext, transcript } = await harness({ mode: 'async' });
    const driver = new CaseDriver(propertyContext, SUITE, new AbortController().signal);
    const changeSet = propertyContext.changeSets[0]!;
    const accepted = await driver.submit('plan', changeSet);
    const op: TrackedOperation = { ordinal: 1, id: String((accepted.response!.json as { value: { operationId: string } }).value.operationId), kind: 'plan', changeSet, accepted, endsBy: 1 };
    const reads = driver.readTogether(op, 3);
    void driver.readUnknown('00000000-0000-4000-8000-000000000001');
    expect(transcript.exchanges).toHaveLength(1);
    await driver.idle();
    expect(transcript.exchanges.filter((e) => e.suite === SUITE && e.request.method === 'GET')).toHaveLength(4);
    expect(await reads).toHaveLength(3);
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

  it('needs the commands\' replay path only once shrinking went past the case its batch found', () => {
    // A batch of 30 (the property's own, or one the path names): run 3, its place 1, then the commands' shrinking.
    expect(commandsShrunk('3:1', 30)).toBe(false);
    expect(commandsShrunk('3:1:0', 30)).toBe(true);
    expect(commandsShrunk('40/0:1', 30)).toBe(false);
    expect(commandsShrunk('40/0:1:4:0', 30)).toBe(true);
    // A batch of one is its case: any step past the run shrank the commands.
    expect(commandsShrunk('3', 1)).toBe(false);
    expect(commandsShrunk('3:0', 1)).toBe(true);
    expect(commandsShrunk('1/3:0', 30)).toBe(true);
  });
});
