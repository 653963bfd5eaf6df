import { describe, expect, it } from 'vitest';
import { answerJson, answerPrompt, answerStatus } from '../../src/rules/catalog/answers.js';
import { countedCalls } from '../../src/rules/support/counted-calls.js';

describe('what the rules about answers count', () => {
  it('says for each view which calls it counts and which it leaves to other rules', () => {
    expect(countedCalls('whole')).toBe("the burst's calls and repeats counted");
    expect(countedCalls('without-restart')).toBe("the burst's calls and repeats counted; not calls around the restart");
    expect(countedCalls('without-burst-overload')).toBe("the burst's calls and repeats counted; not calls refused under load or calls around the restart");
  });

  it('tells apart the counts of answer.status, answer.prompt and answer.json, which judge different views', () => {
    const said = [answerStatus, answerPrompt, answerJson].map((rule) => countedCalls(rule.view));
    expect(new Set(said).size).toBe(3);
    expect(said).toEqual([
      "not the burst's calls, repeats, calls refused under load or calls around the restart",
      "repeats counted; not the burst's calls or calls around the restart",
      "the burst's calls and repeats counted; not calls around the restart",
    ]);
  });
});
