import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { EXPECTATIONS } from '../e2e/expectations.js';
import { argsFor } from '../e2e/reference-args.js';
import { readTranscriptFile } from '../../src/transcript/transcript-file.js';
import { judgeRules, RULES } from '../../src/rules/index.js';
import { recordTranscript, situationTranscriptFile, transcriptFileFor } from '../support/record-transcripts.js';
import { SITUATION_EXPECTATIONS } from '../e2e/situation-expectations.js';

/** Runs against provisioners written apart from the reference, recorded by the situation and restart tests in test/e2e. */
const SITUATION_RECORDINGS: ReadonlyArray<{ name: string; fail?: string[]; warn?: string[] }> = [
  ...SITUATION_EXPECTATIONS,
  { name: 'restart durable' },
  { name: 'restart forgetful', fail: ['durability.survives-restart'] },
  { name: 'restart stuck', fail: ['durability.survives-restart'] },
];

// Transcripts recorded from the kit against the reference provisioner, judged again offline.
// RECORD_TRANSCRIPTS=1 records them anew (after `npm run build`).
const recording = process.env.RECORD_TRANSCRIPTS === '1';

describe('rules judged again on recorded transcripts', () => {
  it.each(EXPECTATIONS.map((e) => [e.name, e] as const))('%s', async (_name, expectation) => {
    const file = transcriptFileFor(expectation);
    if (recording) await recordTranscript(expectation, argsFor(expectation));
    expect(existsSync(file), `missing ${file}: record with RECORD_TRANSCRIPTS=1`).toBe(true);
    const { transcript, context } = await readTranscriptFile(file);
    const results = judgeRules(transcript, context);
    const ids = (status: string): string[] => results.filter((r) => r.status === status).map((r) => r.id).sort();
    expect({ fail: ids('fail'), warn: ids('warn'), advice: ids('advice') }).toEqual({
      fail: [...(expectation.fail ?? [])].sort(),
      warn: [...(expectation.warn ?? [])].sort(),
      advice: [...(expectation.advice ?? [])].sort(),
    });
    for (const id of [...(expectation.fail ?? []), ...(expectation.warn ?? []), ...(expectation.advice ?? [])]) {
      const result = results.find((r) => r.id === id)!;
      expect(result.evidence.length, id).toBeGreaterThan(0);
    }
  });

  it.each(SITUATION_RECORDINGS.map((e) => [e.name, e] as const))('%s (recorded by the situation tests)', async (_name, expectation) => {
    const file = situationTranscriptFile(expectation.name);
    expect(existsSync(file), `missing ${file}: record with RECORD_TRANSCRIPTS=1 npx vitest run test/e2e/situation-mutants.test.ts test/e2e/restart.test.ts`).toBe(true);
    const { transcript, context } = await readTranscriptFile(file);
    const results = judgeRules(transcript, context);
    const ids = (status: string): string[] => results.filter((r) => r.status === status).map((r) => r.id).sort();
    expect({ fail: ids('fail'), warn: ids('warn'), advice: ids('advice') }).toEqual({
      fail: [...(expectation.fail ?? [])].sort(),
      warn: [...(expectation.warn ?? [])].sort(),
      advice: [],
    });
  });

  it('covers every judged rule with a recording where it passes and one where it does not', async () => {
    const passing = new Set<string>();
    const broken = new Set<string>();
    const files = [...EXPECTATIONS.map(transcriptFileFor), ...SITUATION_RECORDINGS.map((e) => situationTranscriptFile(e.name))];
    for (const file of files) {
      const { transcript, context } = await readTranscriptFile(file);
      for (const result of judgeRules(transcript, context)) {
        if (result.status === 'pass') passing.add(result.id);
        if (result.status === 'fail' || result.status === 'warn' || result.status === 'advice') broken.add(result.id);
      }
    }
    const judged = RULES.map((rule) => rule.id);
    expect(judged.filter((id) => !passing.has(id))).toEqual([]);
    expect(judged.filter((id) => !broken.has(id))).toEqual([]);
  });
});
