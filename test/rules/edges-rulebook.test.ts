import { afterEach, describe, expect, it, vi } from 'vitest';
import { kitIdentity } from '../../src/core/package.js';
import { judgeRules, RULE_IDS, RULES } from '../../src/rules/index.js';
import { broken, evidence, held, notExercised } from '../../src/rules/support/judgement.js';
import type { Judgement, Level, Rule } from '../../src/rules/types.js';
import { TranscriptBuilder, context, shopDbFinal } from '../support/transcript-builder.js';

/** The rulebook's judging at its edges: --only and --skip, --strict at each level, and a judge that throws. */

function planned(): TranscriptBuilder {
  const b = new TranscriptBuilder();
  b.post('plan', { body: shopDbFinal() });
  return b;
}

function ruleOf(level: Level): Rule {
  return RULES.find((rule) => rule.level === level && rule.judge.length > 0)!;
}

/** Makes one rule's judge give a set judgement (or throw) for the length of a test. */
function judgeAs(rule: Rule, give: () => Judgement): void {
  vi.spyOn(rule, 'judge').mockImplementation(give);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('--only and --skip', () => {
  it('judges only the rules named by --only, and reports every other one skip', () => {
    const results = judgeRules(planned().transcript, context(), { only: ['answer.status', 'answer.json'] });
    expect(results.map((r) => r.id)).toEqual(RULE_IDS);
    expect(results.filter((r) => r.status !== 'skip').map((r) => [r.id, r.status])).toEqual([
      ['answer.status', 'pass'],
      ['answer.json', 'pass'],
    ]);
    expect(results.find((r) => r.id === 'final.body')).toEqual({
      id: 'final.body',
      level: 'MUST',
      title: RULES.find((rule) => rule.id === 'final.body')!.title,
      sentence: RULES.find((rule) => rule.id === 'final.body')!.sentence,
      status: 'skip',
      message: 'deselected for this run',
      evidence: [],
    });
  });

  it('skips the rules named by --skip and judges the others', () => {
    const results = judgeRules(planned().transcript, context(), { skip: ['answer.status'] });
    expect(results.filter((r) => r.status === 'skip').map((r) => r.id)).toEqual(['answer.status']);
    expect(results.find((r) => r.id === 'answer.json')!.status).toBe('pass');
  });

  it('lets --skip win over --only for a rule named by both', () => {
    const results = judgeRules(planned().transcript, context(), { only: ['answer.status', 'answer.json'], skip: ['answer.json'] });
    expect(results.filter((r) => r.status !== 'skip').map((r) => r.id)).toEqual(['answer.status']);
  });

  it('judges every rule without a selection, and an empty --skip skips none', () => {
    for (const selection of [undefined, {}, { skip: [] }]) {
      expect(judgeRules(planned().transcript, context(), selection).filter((r) => r.status === 'skip')).toEqual([]);
    }
  });
});

describe('statuses by level', () => {
  const fault = () => broken('it broke', [evidence('the key exchange', planned().transcript.exchanges[0]!)], 3);

  it('turns a broken MUST rule into fail, with strict or without', () => {
    const must = ruleOf('MUST');
    judgeAs(must, fault);
    for (const strict of [false, true]) {
      expect(judgeRules(planned().transcript, context(), { strict }).find((r) => r.id === must.id)).toMatchObject({
        status: 'fail',
        message: 'it broke',
        evidence: [{ note: 'the key exchange', exchanges: [1] }],
        count: 3,
      });
    }
  });

  it('turns a broken SHOULD rule into warn, and into fail under --strict', () => {
    const should = ruleOf('SHOULD');
    judgeAs(should, fault);
    expect(judgeRules(planned().transcript, context()).find((r) => r.id === should.id)!.status).toBe('warn');
    expect(judgeRules(planned().transcript, context(), { strict: false }).find((r) => r.id === should.id)!.status).toBe('warn');
    expect(judgeRules(planned().transcript, context(), { strict: true }).find((r) => r.id === should.id)!.status).toBe('fail');
  });

  it('turns a broken ADVICE rule into advice, even under --strict', () => {
    const advice = ruleOf('ADVICE');
    judgeAs(advice, fault);
    expect(judgeRules(planned().transcript, context(), { strict: true }).find((r) => r.id === advice.id)).toMatchObject({ status: 'advice', count: 3 });
  });

  it('passes a held rule with its evidence, or with none, and reports not-exercised without evidence', () => {
    const must = ruleOf('MUST');
    judgeAs(must, () => held('fine', [evidence('shown', planned().transcript.exchanges[0]!)]));
    expect(judgeRules(planned().transcript, context()).find((r) => r.id === must.id)).toMatchObject({
      status: 'pass',
      message: 'fine',
      evidence: [{ note: 'shown', exchanges: [1] }],
    });
    judgeAs(must, () => held('fine'));
    const bare = judgeRules(planned().transcript, context()).find((r) => r.id === must.id)!;
    expect(bare).toMatchObject({ status: 'pass', evidence: [] });
    expect(bare).not.toHaveProperty('count');
    judgeAs(must, () => notExercised('never happened'));
    expect(judgeRules(planned().transcript, context()).find((r) => r.id === must.id)).toMatchObject({
      status: 'not-exercised',
      message: 'never happened',
      evidence: [],
    });
  });
});

describe('a judge that throws', () => {
  const { name, version } = kitIdentity();
  const tail = 'this is a bug in the kit (KIT_INTERNAL), not a verdict on the provisioner';

  it('is reported error, naming the rule, the kit, the failure and where it happened', () => {
    const must = ruleOf('MUST');
    const bug = new TypeError('boom');
    bug.stack = 'TypeError: boom\n    at judge (src/rules/example.ts:10:5)\n    at judgeRule (src/rules/index.ts:1:1)';
    judgeAs(must, () => {
      throw bug;
    });
    const results = judgeRules(planned().transcript, context());
    expect(results.find((r) => r.id === must.id)).toMatchObject({
      status: 'error',
      message: `${name} ${version} failed while judging ${must.id}: boom (at judge (src/rules/example.ts:10:5)); ${tail}`,
      evidence: [],
    });
    expect(results.filter((r) => r.status === 'error').map((r) => r.id)).toEqual([must.id]);
  });

  it('names no place when the failure has none', () => {
    const must = ruleOf('MUST');
    const bug = new Error('no stack');
    bug.stack = 'Error: no stack';
    judgeAs(must, () => {
      throw bug;
    });
    expect(judgeRules(planned().transcript, context()).find((r) => r.id === must.id)!.message).toBe(
      `${name} ${version} failed while judging ${must.id}: no stack; ${tail}`,
    );
    const unwound = new Error('no stack at all');
    unwound.stack = undefined;
    judgeAs(must, () => {
      throw unwound;
    });
    expect(judgeRules(planned().transcript, context()).find((r) => r.id === must.id)!.message).toBe(
      `${name} ${version} failed while judging ${must.id}: no stack at all; ${tail}`,
    );
    judgeAs(must, () => {
      throw 'a string';
    });
    expect(judgeRules(planned().transcript, context()).find((r) => r.id === must.id)!.message).toBe(
      `${name} ${version} failed while judging ${must.id}: a string; ${tail}`,
    );
  });
});

describe('exchanges cut short by the run', () => {
  it('are left out of what every judge sees, events included as they were', () => {
    const b = planned();
    b.post('apply', { error: { kind: 'stopped', message: 'stopped' } });
    b.pollEnded('x', 1, 'aborted', 10);
    const must = ruleOf('MUST');
    const seen: Array<{ seqs: number[]; events: number }> = [];
    vi.spyOn(must, 'judge').mockImplementation((transcript) => {
      seen.push({ seqs: transcript.exchanges.map((e) => e.seq), events: transcript.events.length });
      return held('ok');
    });
    judgeRules(b.transcript, context());
    expect(seen).toEqual([{ seqs: [1], events: 1 }]);
  });

  it('leave the transcript itself to the judges when there are none', () => {
    const b = planned();
    const must = ruleOf('MUST');
    const seen: unknown[] = [];
    vi.spyOn(must, 'judge').mockImplementation((transcript) => {
      seen.push(transcript);
      return held('ok');
    });
    judgeRules(b.transcript, context());
    expect(seen).toEqual([b.transcript]);
    expect(seen[0]).toBe(b.transcript);
  });
});
