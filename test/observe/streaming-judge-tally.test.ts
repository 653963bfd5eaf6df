import { describe, expect, it } from 'vitest';
import { CASES_KEPT, NEVER_HAD, RuleTally } from '../../src/observe/rule-tally.js';
import { RULES } from '../../src/rules/index.js';
import type { Evidence, RuleResult, RuleStatus } from '../../src/rules/types.js';
import type { AnswerWays } from '../../src/rules/support/answer-ways.js';
import { Transcript } from '../../src/transcript/transcript.js';
import { IN_PROGRESS, OP_ID, TranscriptBuilder } from '../support/transcript-builder.js';

const NO_CALLS: AnswerWays = { calls: 0, atOnce: 0, accepted: 0, burst: 0 };
/** A rule of each level, as the rulebook has them. */
const MUST = RULES.find((rule) => rule.level === 'MUST')!;
const SHOULD = RULES.find((rule) => rule.level === 'SHOULD')!;
const ADVICE = RULES.find((rule) => rule.level === 'ADVICE')!;

function result(id: string, status: RuleStatus, message: string, evidence: Evidence[] = [], count?: number): RuleResult {
  const rule = RULES.find((r) => r.id === id)!;
  return { id, level: rule.level, title: rule.title, sentence: rule.sentence, status, message, evidence, ...(count !== undefined && { count }) };
}

function resultFor(tally: RuleTally, id: string, ways = NO_CALLS): RuleResult {
  return tally.results(ways).find((r) => r.id === id)!;
}

/** One operation as a slice: its 202 and one read, numbered from `from`. */
function slice(from = 1): Transcript {
  const b = new TranscriptBuilder();
  const post = b.post('apply', { status: 202, body: { operationId: OP_ID } });
  const read = b.read(OP_ID, { body: IN_PROGRESS });
  const t = new Transcript();
  t.append({ ...post, seq: from });
  t.append({ ...read, seq: from + 1 });
  return t;
}

describe('the tally of a rule judged on many slices of traffic', () => {
  it('says how many situations held, one or many, with the last reason', () => {
    const tally = new RuleTally(false);
    tally.add([result(MUST.id, 'pass', 'the first held')], slice());
    expect(resultFor(tally, MUST.id)).toMatchObject({ status: 'pass', message: 'held in all 1 situation observed; the last: the first held', evidence: [] });
    tally.add([result(MUST.id, 'pass', 'the second held')], slice(3));
    expect(resultFor(tally, MUST.id)).toMatchObject({ status: 'pass', message: 'held in all 2 situations observed; the last: the second held' });
    expect(tally.counts()[MUST.id]).toEqual({ exercised: 2, held: 2, broken: 0 });
  });

  it('says how many of the situations broke a rule, with the first reason, at the level of the rule', () => {
    for (const [rule, strict, status] of [
      [MUST, false, 'fail'],
      [SHOULD, false, 'warn'],
      [SHOULD, true, 'fail'],
      [ADVICE, false, 'advice'],
      [ADVICE, true, 'advice'],
    ] as const) {
      const tally = new RuleTally(strict);
      tally.add([result(rule.id, 'pass', 'held')], slice());
      tally.add([result(rule.id, 'warn', 'the first break', [{ note: 'see #3', exchanges: [3] }])], slice(3));
      tally.add([result(rule.id, 'fail', 'the second break', [{ note: 'see #5', exchanges: [5] }])], slice(5));
      const told = resultFor(tally, rule.id);
      expect(told.status, `${rule.level} strict=${strict}`).toBe(status);
      expect(told.message).toBe('2 of 3 situations observed broke it; the first: the first break');
      expect(told.count).toBe(2);
      expect(tally.counts()[rule.id]).toEqual({ exercised: 3, held: 1, broken: 2 });
      // Both broken cases are kept whole, the one that only warned too.
      expect(tally.evidence.exchanges.map((e) => e.seq)).toEqual([3, 4, 5, 6]);
    }
  });

  it('says one situation broke a rule when one did', () => {
    const tally = new RuleTally(false);
    tally.add([result(MUST.id, 'fail', 'broken once', [{ note: 'see #1', exchanges: [1] }])], slice());
    expect(resultFor(tally, MUST.id).message).toBe('1 of 1 situation observed broke it; the first: broken once');
  });

  it('counts every fault a broken situation found, by its count or else its evidence', () => {
    const tally = new RuleTally(false);
    tally.add([result(MUST.id, 'fail', 'many', [{ note: 'a', exchanges: [1] }], 7)], slice());
    tally.add([result(MUST.id, 'fail', 'two', [{ note: 'b', exchanges: [3] }, { note: 'c', exchanges: [4] }])], slice(3));
    expect(resultFor(tally, MUST.id).count).toBe(9);
  });

  it('counts a waived break as broken, and an advice', () => {
    for (const status of ['waived', 'advice'] as const) {
      const tally = new RuleTally(false);
      tally.add([result(MUST.id, status, 'not held', [{ note: 'see #1', exchanges: [1] }])], slice());
      expect(tally.counts()[MUST.id], status).toEqual({ exercised: 1, held: 0, broken: 1 });
      expect(resultFor(tally, MUST.id).status).toBe('fail');
      expect(tally.evidence.exchanges.map((e) => e.seq)).toEqual([1, 2]);
    }
  });

  it('keeps the evidence of the first few broken cases only, five pieces of each at most, every exchange once', () => {
    const tally = new RuleTally(false);
    const pieces = (from: number): Evidence[] => Array.from({ length: 7 }, (_, i) => ({ note: `piece ${i} of #${from}`, exchanges: [from + 1, from] }));
    for (let i = 0; i < CASES_KEPT + 2; i++) tally.add([result(MUST.id, 'fail', `case ${i}`, pieces(1 + 2 * i))], slice(1 + 2 * i));
    const told = resultFor(tally, MUST.id);
    expect(told.evidence).toHaveLength(CASES_KEPT * 5);
    expect(told.evidence[0]).toEqual({ note: 'piece 0 of #1', exchanges: [2, 1] });
    expect(told.evidence.at(-1)).toEqual({ note: `piece 4 of #${1 + 2 * (CASES_KEPT - 1)}`, exchanges: [2 * CASES_KEPT, 2 * CASES_KEPT - 1] });
    expect(tally.evidence.exchanges.map((e) => e.seq)).toEqual(Array.from({ length: 2 * CASES_KEPT }, (_, i) => i + 1));
    expect(told.count).toBe(7 * (CASES_KEPT + 2));
    expect(told.message).toMatch(/^5 of 5 situations/);
  });

  it('keeps no evidence of slices where every rule held, nor of a rule it does not know', () => {
    const tally = new RuleTally(false);
    tally.add([result(MUST.id, 'pass', 'held')], slice());
    tally.add([{ ...result(MUST.id, 'fail', 'x', [{ note: 'n', exchanges: [3] }]), id: 'no.such-rule' }], slice(3));
    expect(tally.evidence.exchanges).toEqual([]);
    expect(tally.results(NO_CALLS).map((r) => r.id)).toEqual(RULES.map((r) => r.id));
  });

  it('keeps a broken case whole, with how its operation ended and its change set, and leaves out what its evidence names but the slice lacks', () => {
    const tally = new RuleTally(false);
    const t = slice(10);
    t.note({ type: 'poll-ended', at: 1, operationId: OP_ID, reason: 'final', acceptedSeq: 10, conclusion: 'done' });
    t.note({ type: 'restart-started', at: 2, describe: 'restart' });
    t.note({ type: 'poll-ended', at: 3, operationId: 'gone', reason: 'lost', acceptedSeq: 99, conclusion: 'lost' });
    tally.add([result(MUST.id, 'fail', 'broken', [{ note: 'see #11 and #42', exchanges: [11, 42] }])], t, true, { name: 'shop-db', changes: [{ id: 'shop-db', environment: 'test' }] });
    expect(tally.evidence.exchanges.map((e) => e.seq)).toEqual([10, 11]);
    expect(tally.evidence.events).toEqual([
      { type: 'poll-ended', at: 1, operationId: OP_ID, reason: 'final', acceptedSeq: 10, conclusion: 'done' },
      { type: 'restart-started', at: 2, describe: 'restart' },
    ]);
    expect(resultFor(tally, MUST.id).evidence).toEqual([{ note: 'see #11 and #42', exchanges: [11] }]);
    expect(tally.evidenceChangeSets()).toEqual([{ name: 'shop-db', changes: [{ id: 'shop-db', environment: 'test' }] }]);
  });

  it('keeps the change set of a case kept only', () => {
    const tally = new RuleTally(false);
    tally.add([result(MUST.id, 'pass', 'held')], slice(), true, { name: 'held-set' });
    for (let i = 0; i < CASES_KEPT; i++) tally.add([result(MUST.id, 'fail', 'broken', [{ note: 'n', exchanges: [3 + i] }])], slice(3 + i), true, { name: `kept-${i}` });
    tally.add([result(MUST.id, 'fail', 'broken', [{ note: 'n', exchanges: [20] }])], slice(20), true, { name: 'past-the-few' });
    expect(tally.evidenceChangeSets().map((c) => c.name)).toEqual(Array.from({ length: CASES_KEPT }, (_, i) => `kept-${i}`));
  });

  it('says a rule deselected is skipped, and a judge that threw is an error, before anything it found', () => {
    const tally = new RuleTally(false);
    tally.add([result(MUST.id, 'fail', 'broken', [{ note: 'n', exchanges: [1] }]), result(SHOULD.id, 'pass', 'held')], slice());
    tally.add([result(MUST.id, 'skip', 'deselected for this run'), result(SHOULD.id, 'error', 'the judge threw: first')], slice(3));
    tally.add([result(SHOULD.id, 'error', 'the judge threw: second')], slice(5));
    expect(resultFor(tally, MUST.id)).toMatchObject({ status: 'skip', message: 'deselected for this run', evidence: [] });
    expect(resultFor(tally, SHOULD.id)).toMatchObject({ status: 'error', message: 'the judge threw: first', evidence: [] });
    expect(resultFor(tally, MUST.id)).not.toHaveProperty('count');
  });

  it('says why a rule was not exercised by the latest slice that held a call, or by any slice when none did', () => {
    const tally = new RuleTally(false);
    expect(resultFor(tally, MUST.id)).toMatchObject({ status: 'not-exercised', message: 'the observed traffic never had this situation', evidence: [] });
    tally.add([result(MUST.id, 'not-exercised', 'only a read')], slice(), false);
    expect(resultFor(tally, MUST.id).message).toBe(`${NEVER_HAD} (only a read)`);
    tally.add([result(MUST.id, 'not-exercised', 'another read')], slice(3), false);
    expect(resultFor(tally, MUST.id).message).toBe(`${NEVER_HAD} (only a read)`);
    tally.add([result(MUST.id, 'not-exercised', 'no operation to read')], slice(5), true);
    tally.add([result(MUST.id, 'not-exercised', 'a later read')], slice(7), false);
    expect(resultFor(tally, MUST.id).message).toBe(`${NEVER_HAD} (no operation to read)`);
    tally.add([result(MUST.id, 'not-exercised', 'the last call')], slice(9));
    expect(resultFor(tally, MUST.id).message).toBe(`${NEVER_HAD} (the last call)`);
    expect(tally.counts()[MUST.id]).toEqual({ exercised: 0, held: 0, broken: 0 });
  });

  it('calls a rule not applicable only when no call of the observation chose the way it is about', () => {
    const tally = new RuleTally(false);
    tally.add([result(MUST.id, 'not-applicable', 'the one plan or apply call was answered 200 at once: no operation to read')], slice());
    expect(resultFor(tally, MUST.id, { calls: 3, atOnce: 3, accepted: 0, burst: 0 })).toMatchObject({
      status: 'not-applicable',
      message: 'the observed provisioner never answered the way this rule is about: all 3 plan and apply calls were answered 200 at once: no operation to read',
      evidence: [],
    });
    expect(resultFor(tally, MUST.id, { calls: 3, atOnce: 2, accepted: 1, burst: 0 })).toMatchObject({ status: 'not-exercised', message: NEVER_HAD });
    const other = new RuleTally(false);
    other.add([result(MUST.id, 'not-applicable', 'the one plan or apply call was answered 202: no final answer at once')], slice());
    expect(resultFor(other, MUST.id, { calls: 2, atOnce: 0, accepted: 2, burst: 0 }).message).toBe(
      'the observed provisioner never answered the way this rule is about: all 2 plan and apply calls were answered 202: no final answer at once',
    );
    expect(resultFor(other, MUST.id, { calls: 2, atOnce: 0, accepted: 0, burst: 0 }).status).toBe('not-exercised');
  });

  it('tells a rule held in some situations as held, whatever the others found not applicable', () => {
    const tally = new RuleTally(false);
    tally.add([result(MUST.id, 'not-applicable', 'x: y')], slice());
    tally.add([result(MUST.id, 'pass', 'held')], slice(3));
    expect(resultFor(tally, MUST.id, { calls: 2, atOnce: 2, accepted: 0, burst: 0 }).status).toBe('pass');
  });
});

describe('the tally told as a copy', () => {
  it('hands results whose evidence the caller may change without changing the tally', () => {
    const tally = new RuleTally(false);
    tally.add([result(MUST.id, 'fail', 'broken', [{ note: 'n', exchanges: [1] }])], slice());
    resultFor(tally, MUST.id).evidence.push({ note: 'added', exchanges: [] });
    expect(resultFor(tally, MUST.id).evidence).toHaveLength(1);
  });
});
