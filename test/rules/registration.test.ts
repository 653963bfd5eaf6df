import { describe, expect, it } from 'vitest';
import { registrationBody, registrationMaxOperationDuration, RULES } from '../../src/rules/catalog/registration.js';
import type { JudgeContext } from '../../src/core/judge-context.js';
import type { Judgement } from '../../src/rules/types.js';
import { OP_ID, TranscriptBuilder, context, shopDbFinal } from '../support/transcript-builder.js';
import { theContractsRules } from '../support/contract-rules.js';

theContractsRules(RULES, [
  ['registration.body', 'MUST'],
  ['registration.max-operation-duration', 'MUST'],
]);

const VALID = {
  name: 'postgres-provisioner',
  url: 'https://postgres-provisioner.example.com',
  types: [{ kind: 'managed-resource', type: 'postgres' }],
  maxOperationDuration: 'PT5M',
};

function registered(value: unknown): JudgeContext {
  return context({ registration: { file: 'registration.json', json: { ok: true, value } } });
}

function notes(judgement: Judgement): string[] {
  if (judgement.outcome !== 'broken') throw new Error(`expected broken, got ${judgement.outcome}: ${judgement.message}`);
  return judgement.evidence.map((e) => e.note);
}

function acceptedRun(): TranscriptBuilder {
  const b = new TranscriptBuilder();
  b.post('plan', { body: shopDbFinal() });
  b.post('apply', { status: 202, body: { operationId: OP_ID } });
  return b;
}

const empty = new TranscriptBuilder().transcript;

describe('registration.body', () => {
  it('holds for a complete registration', () => {
    expect(registrationBody.judge(empty, registered(VALID))).toEqual({
      outcome: 'held',
      message: 'registration.json has a name, an absolute http(s) url and 1 type',
    });
  });

  it('is broken by an empty name, a relative url and an incomplete type', () => {
    const j = registrationBody.judge(empty, registered({ name: '', url: '/provisioner', types: [{ kind: 'managed-resource' }, 'x'] }));
    expect(notes(j)).toEqual([
      'registration.json: name is empty',
      'registration.json: url "/provisioner" is not an absolute URL',
      'registration.json: types[0].type is missing',
      'registration.json: types[1] is a string, not an object',
    ]);
    expect(j.outcome === 'broken' && j.count).toBe(4);
    expect(j.outcome === 'broken' && j.evidence[0]!.exchanges).toEqual([]);
  });

  it('is broken by a non-http url, a missing name and empty types', () => {
    expect(notes(registrationBody.judge(empty, registered({ url: 'ftp://example.com', types: [] })))).toEqual([
      'registration.json: name is missing',
      'registration.json: url "ftp://example.com" uses ftp, not http or https',
      'registration.json: types is empty',
    ]);
  });

  it('is broken by a url of the right form that does not parse, and by one a parser would repair', () => {
    const judged = (url: string): Judgement => registrationBody.judge(empty, registered({ ...VALID, url }));
    expect(notes(judged('https://p.example.com:99999'))).toEqual(['registration.json: url "https://p.example.com:99999" is not an absolute URL']);
    expect(notes(judged('http://999.1.1.1'))).toEqual(['registration.json: url "http://999.1.1.1" is not an absolute URL']);
    expect(notes(judged('http:p.example.com'))).toEqual(['registration.json: url "http:p.example.com" is not an absolute URL']);
    expect(notes(judged('http://bücher.de'))).toEqual(['registration.json: url "http://bücher.de" is not an absolute URL']);
    expect(judged('http://[::1]:65535/p').outcome).toBe('held');
  });

  it('is broken when the file is not JSON or not an object', () => {
    const unparsed = context({ registration: { file: 'registration.json', json: { ok: false, error: 'Unexpected token }' } } });
    expect(notes(registrationBody.judge(empty, unparsed))).toEqual(['registration.json does not parse as JSON: Unexpected token }']);
    expect(notes(registrationBody.judge(empty, registered([VALID])))).toEqual(['registration.json holds an array, not a JSON object']);
  });

  it('is not exercised without a registration', () => {
    expect(registrationBody.judge(empty, context())).toEqual({ outcome: 'not-exercised', message: 'no --registration file was given' });
  });
});

describe('registration.max-operation-duration', () => {
  it('holds for PT5M', () => {
    const j = registrationMaxOperationDuration.judge(acceptedRun().transcript, registered(VALID));
    expect(j.outcome).toBe('held');
    expect(j.message).toContain('PT5M');
  });

  it('is broken by PT45M, P0D and "5 minutes"', () => {
    const b = acceptedRun();
    expect(notes(registrationMaxOperationDuration.judge(b.transcript, registered({ ...VALID, maxOperationDuration: 'PT45M' })))[0]).toMatch(
      /longer than PT30M/,
    );
    expect(notes(registrationMaxOperationDuration.judge(b.transcript, registered({ ...VALID, maxOperationDuration: 'P0D' })))[0]).toMatch(
      /more than zero/,
    );
    expect(notes(registrationMaxOperationDuration.judge(b.transcript, registered({ ...VALID, maxOperationDuration: '5 minutes' })))[0]).toMatch(
      /not an ISO 8601 duration/,
    );
    expect(registrationMaxOperationDuration.judge(empty, registered({ ...VALID, maxOperationDuration: 300 })).outcome).toBe('broken');
  });

  it('is broken when it is missing and the provisioner answered 202', () => {
    const { maxOperationDuration: _dropped, ...withoutDuration } = VALID;
    const j = registrationMaxOperationDuration.judge(acceptedRun().transcript, registered(withoutDuration));
    expect(j).toMatchObject({
      outcome: 'broken',
      message: 'the provisioner answered 202 but the registration has no maxOperationDuration: the control plane fails such work',
    });
    expect(j.outcome === 'broken' && j.evidence.map((e) => e.exchanges)).toEqual([[2]]);
  });

  it('holds when it is missing and nothing was answered 202', () => {
    const { maxOperationDuration: _dropped, ...withoutDuration } = VALID;
    const b = new TranscriptBuilder();
    b.post('plan', { body: shopDbFinal() });
    b.badInput('apply', { status: 202, body: { operationId: OP_ID } });
    const j = registrationMaxOperationDuration.judge(b.transcript, registered(withoutDuration));
    expect(j.outcome).toBe('held');
    expect(j.message).toContain('no 202 was answered, so none is needed');
  });

  it('is not exercised without a registration or when the file does not parse', () => {
    expect(registrationMaxOperationDuration.judge(acceptedRun().transcript, context()).outcome).toBe('not-exercised');
    const unparsed = context({ registration: { file: 'registration.json', json: { ok: false, error: 'Unexpected end of JSON input' } } });
    expect(registrationMaxOperationDuration.judge(acceptedRun().transcript, unparsed).outcome).toBe('not-exercised');
  });
});
