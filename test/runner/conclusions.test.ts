import { describe, expect, it } from 'vitest';
import { conclusionsFor } from '../../src/runner/conclusions.js';
import { context, OP_ID, TranscriptBuilder } from '../support/transcript-builder.js';

const URL = 'http://127.0.0.1:8080';
const registered = context({ maxOperationDuration: { ms: 60_000, text: 'PT1M', source: 'registration' } });

describe('the conclusions of a run', () => {
  it('says the provisioner accepted every plan and apply call only when it did', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { status: 202, body: { operationId: OP_ID } });
    b.post('apply', { status: 202, body: { operationId: '7f1c2a3e-8b4d-4e5f-9a7b-1c2d3e4f5a6b' } });
    expect(conclusionsFor(b.transcript, registered, 'pass', URL)).toEqual([
      'the provisioner accepted every plan and apply call (202), which the contract allows: only 202 answers and their operations were judged, and the rule about 200 answers to plan and apply is not applicable',
    ]);
  });

  it('counts the calls it refused or left unanswered apart from those it accepted', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { status: 202, body: { operationId: OP_ID } });
    for (let i = 0; i < 3; i++) b.post('plan', { status: 429, body: { error: 'slow down' }, suite: 'scenario/burst' });
    b.post('apply', { error: { kind: 'reset', message: 'socket hang up' } });
    const [sentence] = conclusionsFor(b.transcript, registered, 'fail', URL);
    expect(sentence).not.toContain('accepted every plan and apply call (202)');
    expect(sentence).toBe(
      'the provisioner accepted (202) every plan and apply call that got 200 or 202 (1 of 5 calls; the other 4 got another status or no answer), which the contract allows: only 202 answers and their operations were judged, and the rule about 200 answers to plan and apply is not applicable',
    );
  });

  it('says so of a provisioner that answered every call at once', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { status: 200, body: {} });
    expect(conclusionsFor(b.transcript, registered, 'pass', URL)[0]).toMatch(/^the provisioner answered every plan and apply call at once \(200\), which the contract allows: /);
  });

  it('says the same of a provisioner that answered at once', () => {
    const b = new TranscriptBuilder();
    b.post('plan', { status: 200, body: {} });
    b.post('apply', { status: 503, body: { error: 'busy' } });
    expect(conclusionsFor(b.transcript, registered, 'fail', URL)[0]).toMatch(
      /^the provisioner answered at once \(200\) every plan and apply call that got 200 or 202 \(1 of 2 calls; the other one got another status or no answer\), which the contract allows: only 200 answers were judged/,
    );
  });
});
