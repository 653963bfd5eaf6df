import { describe, expect, it } from 'vitest';
import { durabilitySurvivesRestart } from '../../src/rules/catalog/durability.js';
import { finalBody } from '../../src/rules/catalog/final.js';
import { judgeRules, RULES } from '../../src/rules/index.js';
import { answeredApart, answerWays, neverChosen, noAnswerThatWay, waysJudged } from '../../src/rules/support/answer-ways.js';
import type { RuleResult } from '../../src/rules/types.js';
import { conclusionsFor, waysCertified } from '../../src/runner/conclusions.js';
import { decideVerdict, summarize } from '../../src/runner/verdict.js';
import { SITUATION_SUITES } from '../../src/transcript/situations.js';
import { IN_PROGRESS, TranscriptBuilder, context, shopDbFinal } from '../support/transcript-builder.js';

const BURST = SITUATION_SUITES.burst;
const IDS = ['6f1c2a3e-8b4d-4e5f-9a7b-1c2d3e4f5a6b', '0b7e2c44-1d3f-4a9b-8c21-5e6f7a8b9c0d', '9a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d'];

/** A provisioner that accepts every call: a plan and an apply, each read in progress, then final. */
function alwaysAccepting(): TranscriptBuilder {
  const b = new TranscriptBuilder();
  b.post('plan', { at: 0, status: 202, body: { operationId: IDS[0] } });
  b.post('apply', { at: 0, status: 202, body: { operationId: IDS[1] } });
  b.post('plan', { suite: BURST, at: 5, status: 202, body: { operationId: IDS[2] } });
  for (const [i, id] of IDS.entries()) {
    b.read(id, { at: 100 + i, body: IN_PROGRESS });
    b.read(id, { at: 1000 + i, body: shopDbFinal() });
  }
  return b;
}

/** A provisioner that answers every call at once, the burst included. */
function alwaysAtOnce(): TranscriptBuilder {
  const b = new TranscriptBuilder();
  b.post('plan', { at: 0, body: shopDbFinal() });
  b.post('apply', { at: 10, body: shopDbFinal() });
  b.post('plan', { suite: BURST, at: 20, body: shopDbFinal() });
  b.post('apply', { suite: BURST, at: 20, body: shopDbFinal() });
  return b;
}

function statusOf(results: readonly RuleResult[], id: string): RuleResult {
  return results.find((result) => result.id === id)!;
}

describe('the ways a provisioner answered plan and apply', () => {
  it('counts 200, 202 and calls that chose neither way (another status, no answer)', () => {
    const b = alwaysAccepting();
    b.post('apply', { status: 503, body: {} });
    b.post('plan', { error: { kind: 'reset', message: 'socket hang up' } });
    b.badInput('plan', { status: 400, body: {} });
    expect(answerWays(b.transcript)).toEqual({ calls: 5, atOnce: 0, accepted: 3, burst: 1 });
    expect(waysJudged(b.transcript)).toEqual([202]);
  });

  it('says every call was accepted, naming the burst and the calls that got no answer', () => {
    const accepting = alwaysAccepting();
    expect(neverChosen(accepting.transcript, 200, 'no 200 answer to judge')).toBe("all 3 plan and apply calls were answered 202, the burst's 1 included: no 200 answer to judge");
    expect(neverChosen(accepting.transcript, 202, 'no operation to read')).toBeUndefined();
    accepting.post('plan', { status: 500, body: {} });
    expect(neverChosen(accepting.transcript, 200, 'no 200 answer to judge')).toBe(
      "every plan and apply call answered 200 or 202 was answered 202 (3 of 4 calls, the burst's 1 included; the other one got another status or no answer): no 200 answer to judge",
    );
  });

  it('says every call was answered at once, and nothing when both ways or neither were chosen', () => {
    expect(neverChosen(alwaysAtOnce().transcript, 202, 'no operation to read')).toBe("all 4 plan and apply calls were answered 200 at once, the burst's 2 included: no operation to read");
    const both = alwaysAtOnce();
    both.post('plan', { suite: BURST, status: 202, body: { operationId: IDS[0] } });
    expect(neverChosen(both.transcript, 202, 'no operation to read')).toBeUndefined();
    expect(neverChosen(both.transcript, 200, 'no 200 answer to judge')).toBeUndefined();
    expect(waysJudged(both.transcript)).toEqual([200, 202]);
    const refused = new TranscriptBuilder();
    refused.post('plan', { status: 429, body: {} });
    refused.post('apply', { error: { kind: 'timeout', message: 'no answer' } });
    expect(neverChosen(refused.transcript, 200, 'x')).toBeUndefined();
    expect(neverChosen(refused.transcript, 202, 'x')).toBeUndefined();
    expect(noAnswerThatWay(refused.transcript, 202, 'x', 'nothing was answered')).toEqual({ outcome: 'not-exercised', message: 'nothing was answered' });
    expect(waysJudged(refused.transcript)).toEqual([]);
    expect(neverChosen(new TranscriptBuilder().transcript, 202, 'x')).toBeUndefined();
  });

  it('counts the calls that got another status or no answer in one wording, for a rule and for the run', () => {
    expect(answeredApart(1, 2)).toBe('(1 of 2 calls; the other one got another status or no answer)');
    expect(answeredApart(1, 5, ", the burst's 3 included")).toBe("(1 of 5 calls, the burst's 3 included; the other 4 got another status or no answer)");
    const b = new TranscriptBuilder();
    b.post('plan', { body: shopDbFinal() });
    b.post('apply', { status: 503, body: {} });
    const apart = '(1 of 2 calls; the other one got another status or no answer)';
    expect(neverChosen(b.transcript, 202, 'no operation to read')).toContain(apart);
    expect(conclusionsFor(b.transcript, context(), 'fail', 'http://127.0.0.1:8080')[0]).toContain(apart);
  });
});

describe('final.body and the way it is about', () => {
  it('holds for a 200 answer with the final shape, and is broken by one without it', () => {
    const b = alwaysAtOnce();
    expect(finalBody.judge(b.transcript, context())).toMatchObject({ outcome: 'held' });
    b.post('plan', { body: { outcome: 'in_progress', description: 'busy', results: [] } });
    expect(finalBody.judge(b.transcript, context())).toMatchObject({ outcome: 'broken', count: 1 });
  });

  it('is not applicable to a provisioner that accepted every call, and not exercised when no call was answered', () => {
    expect(finalBody.judge(alwaysAccepting().transcript, context())).toEqual({
      outcome: 'not-applicable',
      message: "all 3 plan and apply calls were answered 202, the burst's 1 included: no 200 answer to judge",
    });
    const silent = new TranscriptBuilder();
    silent.post('plan', { error: { kind: 'refused', message: 'ECONNREFUSED' } });
    expect(finalBody.judge(silent.transcript, context())).toEqual({ outcome: 'not-exercised', message: 'the provisioner never answered 200 to plan or apply' });
  });
});

describe('durability.survives-restart and the way it is about', () => {
  it('is not applicable when every call, the restart suite\'s included, was answered at once', () => {
    const b = alwaysAtOnce();
    b.post('apply', { suite: SITUATION_SUITES.restart, at: 50, body: shopDbFinal() });
    b.restart(100, 1100);
    expect(durabilitySurvivesRestart.judge(b.transcript, context())).toEqual({
      outcome: 'not-applicable',
      message: "all 5 plan and apply calls were answered 200 at once, the burst's 2 included: no operation was in progress across the restart",
    });
  });
});

describe('a run judged on one way of answering', () => {
  it('of a provisioner that accepts every call: only the rule about 200 answers is not applicable, and the rest hold', () => {
    const results = judgeRules(alwaysAccepting().transcript, context());
    const notApplicable = results.filter((r) => r.status === 'not-applicable').map((r) => r.id);
    expect(notApplicable).toEqual(['final.body']);
    expect(statusOf(results, 'final.body')).toMatchObject({ evidence: [], message: expect.stringContaining('all 3 plan and apply calls were answered 202') });
    for (const id of ['final.results-match-changes', 'final.result-shape', 'final.outcome-consistent', 'accepted.body', 'operation.body', 'operation.status']) {
      expect(statusOf(results, id).status, id).toBe('pass');
    }
  });

  it('of a provisioner that answers every call at once: the rules about operations are not applicable, the final rules judged', () => {
    const results = judgeRules(alwaysAtOnce().transcript, context());
    const notApplicable = results.filter((r) => r.status === 'not-applicable').map((r) => r.id);
    // Every rule that only a read of an operation can show has nothing to judge, and so have the rules about the
    // 202 answer, about an apply sent again while one runs and about a restart; each says the provisioner's
    // choice was the reason, and the rules about answers at once are judged.
    const onlyShownByReads = RULES.filter((rule) => rule.situations.every((s) => s === 'read' || s === 'read-after-final')).map((rule) => rule.id);
    expect(onlyShownByReads).toEqual(expect.arrayContaining(['operation.status', 'operation.final-stable', 'operation.within-max-duration']));
    expect(notApplicable).toEqual(expect.arrayContaining([...onlyShownByReads, 'accepted.body', 'accepted.operation-id-uuid', 'apply.repeat-while-running', 'durability.survives-restart']));
    for (const id of notApplicable) expect(statusOf(results, id).message, id).toMatch(/^all 4 plan and apply calls were answered 200 at once, the burst's 2 included: no /);
    for (const id of ['answer.status', 'answer.json', 'answer.prompt', 'final.body', 'final.results-match-changes', 'final.result-shape', 'final.outcome-consistent', 'plan.repeatable', 'capacity.burst']) {
      expect(statusOf(results, id).status, id).toBe('pass');
    }
    // Probes of unknown ids are the kit's own: they apply whatever way the provisioner answers.
    expect(statusOf(results, 'operation.unknown-404').status).toBe('not-exercised');
  });

  it('never passes and never makes a certification incomplete; the certificate names the ways judged', () => {
    const b = alwaysAtOnce();
    const results = judgeRules(b.transcript, context()).filter((r) => r.status === 'pass' || r.status === 'not-applicable');
    expect(decideVerdict(results, b.transcript, false, true)).toBe('pass');
    const summary = summarize(results);
    expect(summary.notApplicable).toBe(results.filter((r) => r.status === 'not-applicable').length);
    expect(summary.notApplicable).toBeGreaterThan(0);
    expect(summary.passed + summary.notApplicable!).toBe(results.length);
    expect(decideVerdict([...results, { ...results[0]!, status: 'not-exercised' }], b.transcript, false, true)).toBe('incomplete');
    expect(summarize([{ ...results[0]!, status: 'pass' }])).not.toHaveProperty('notApplicable');
    expect(waysCertified(b.transcript)).toBe('ways of answering plan and apply judged: 200 only (the provisioner never answered 202)');
    expect(waysCertified(alwaysAccepting().transcript)).toBe('ways of answering plan and apply judged: 202 only (the provisioner never answered 200)');
    const both = alwaysAccepting();
    both.post('plan', { body: shopDbFinal() });
    expect(waysCertified(both.transcript)).toBe('ways of answering plan and apply judged: 200 and 202');
  });
});
