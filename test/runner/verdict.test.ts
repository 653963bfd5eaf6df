import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/core/verdict.js';
import { decideVerdict, summarize } from '../../src/runner/verdict.js';
import type { RuleResult } from '../../src/rules/types.js';
import { TranscriptBuilder } from '../support/transcript-builder.js';

function result(id: string, status: RuleResult['status']): RuleResult {
  return { id, level: 'MUST', title: id, sentence: id, status, message: '', evidence: [] };
}

describe('the verdict of a run', () => {
  const answered = (): TranscriptBuilder => {
    const b = new TranscriptBuilder();
    b.post('plan', { status: 200, body: {} });
    return b;
  };

  it('is unreachable when nothing ever answered, whatever the rules say', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { error: { kind: 'refused', message: 'ECONNREFUSED' } });
    expect(decideVerdict([result('a', 'pass')], b.transcript)).toBe('unreachable');
    expect(EXIT_CODES.unreachable).toBe(3);
  });

  it('fails when a rule failed, passes otherwise', () => {
    expect(decideVerdict([result('a', 'pass'), result('b', 'fail')], answered().transcript)).toBe('fail');
    expect(decideVerdict([result('a', 'pass'), result('b', 'warn'), result('c', 'not-exercised')], answered().transcript)).toBe('pass');
  });

  it('never passes a run that was stopped before its end', () => {
    expect(decideVerdict([result('a', 'pass')], answered().transcript, true)).toBe('error');
    expect(decideVerdict([result('a', 'fail')], answered().transcript, true)).toBe('fail');
  });

  it('calls a run its time limit cut short incomplete, never a pass, unless a rule failed', () => {
    expect(decideVerdict([result('a', 'pass')], answered().transcript, false, false, true)).toBe('incomplete');
    expect(decideVerdict([result('a', 'pass'), result('b', 'fail')], answered().transcript, false, false, true)).toBe('fail');
    expect(decideVerdict([result('a', 'pass')], answered().transcript, false, false, false)).toBe('pass');
  });

  it('counts each status', () => {
    expect(summarize([result('a', 'pass'), result('b', 'warn'), result('c', 'not-exercised'), result('d', 'skip')])).toEqual({
      passed: 1,
      failed: 0,
      warned: 1,
      advice: 0,
      skipped: 1,
      notExercised: 1,
    });
  });
});
