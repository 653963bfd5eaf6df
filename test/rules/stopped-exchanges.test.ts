import { describe, expect, it } from 'vitest';
import { judgeRules } from '../../src/rules/index.js';
import { TranscriptBuilder, context } from '../support/transcript-builder.js';

describe('exchanges the kit cut short when the run was stopped', () => {
  it('are not held against the provisioner', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { status: 200, body: { outcome: 'succeeded', description: 'd', results: [] } });
    b.post('apply', { error: { kind: 'stopped', message: 'the run was stopped before an answer came' } });
    const status = judgeRules(b.transcript, context()).find((r) => r.id === 'answer.status')!;
    expect(status.status).toBe('pass');
    expect(status.message).toMatch(/^1 /);
  });

  it('while a real transport error still is', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { status: 200, body: { outcome: 'succeeded', description: 'd', results: [] } });
    b.post('apply', { error: { kind: 'reset', message: 'ECONNRESET' } });
    expect(judgeRules(b.transcript, context()).find((r) => r.id === 'answer.status')!.status).toBe('fail');
  });
});
