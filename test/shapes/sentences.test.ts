import { describe, expect, it } from 'vitest';
import {
  acceptedBodyProblems,
  acceptedOnlyOperationIdProblems,
  finalAnswerProblems,
  operationBodyProblems,
  registrationBodyProblems,
  resultProblems,
} from '../../src/shapes/index.js';
import { registrationSchema } from '../../src/shapes/generated/schemas.js';
import { validators } from '../../src/shapes/validators.js';

const OP_ID = '6f1c2a3e-8b4d-4e5f-9a7b-1c2d3e4f5a6b';
const RESULT = { id: 'shop-db', environment: 'test', outcome: 'succeeded', description: 'Created.', outputs: { host: 'db' } };
const FINAL = { outcome: 'succeeded', description: 'Done.', results: [RESULT] };
const REGISTRATION = { name: 'p', url: 'https://p.example.com', types: [{ kind: 'managed-resource', type: 'postgres' }] };

describe('accepted.body', () => {
  it.each([
    [{ id: OP_ID }, 'has no operationId (fields: id)'],
    [{}, 'has no operationId (fields: none)'],
    [{ operationId: 42 }, 'has an operationId that is a number (42), not a string'],
    [{ operationId: null }, 'has an operationId that is null (null), not a string'],
    [[OP_ID], 'is an array, not a JSON object'],
  ])('%j: %s', (body, sentence) => {
    expect(acceptedBodyProblems(body)).toEqual([sentence]);
  });

  it('takes any string as operationId (its form is accepted.operation-id-uuid\'s), and fields besides it', () => {
    expect(acceptedBodyProblems({ operationId: 'op-17' })).toEqual([]);
    expect(acceptedBodyProblems({ operationId: OP_ID, status: 'accepted' })).toEqual([]);
  });
});

describe('accepted.only-operation-id', () => {
  it('names every other field, in the order of the body', () => {
    expect(acceptedOnlyOperationIdProblems({ operationId: OP_ID, status: 'accepted', href: '/x' })).toEqual(['holds fields besides operationId: status, href']);
    expect(acceptedOnlyOperationIdProblems({ href: '/x' })).toEqual(['holds fields besides operationId: href']);
    expect(acceptedOnlyOperationIdProblems({ operationId: OP_ID })).toEqual([]);
    expect(acceptedOnlyOperationIdProblems('x')).toEqual(['is a string, not a JSON object']);
  });
});

describe('final.body', () => {
  it.each([
    [{ description: 3, results: {} }, ['outcome is missing', 'description is a number, not a string', 'results is an object, not an array']],
    [{ ...FINAL, outcome: 'in_progress' }, ['a 200 answer to plan or apply said in_progress (only a 202 may leave work running)']],
    [{ ...FINAL, outcome: 'ok' }, ['outcome "ok" is not succeeded or failed']],
    [{ ...FINAL, outcome: 1 }, ['outcome 1 is not succeeded or failed']],
    [{ results: null, outcome: 'failed' }, ['description is missing', 'results is null, not an array']],
    [[FINAL], ['the body is an array, not a JSON object']],
  ])('%j', (body, sentences) => {
    expect(finalAnswerProblems(body)).toEqual(sentences);
  });

  it('leaves the results\' own shape to final.result-shape, and takes extra fields', () => {
    expect(finalAnswerProblems({ ...FINAL, results: ['oops', {}], extra: 1 })).toEqual([]);
    expect(validators.finalAnswer({ ...FINAL, results: ['oops'] })).toBe(false);
  });
});

describe('final.result-shape', () => {
  it.each([
    [{ ...RESULT, outputs: ['x'] }, ['outputs is an array, not an object']],
    [{ ...RESULT, outcome: 'in_progress', description: null }, ['outcome "in_progress" is not succeeded or failed', 'description is null, not a string']],
    [{ environment: 'test', outcome: 'succeeded', description: '', outputs: null }, ['id is missing', 'outputs is null, not an object']],
    [{ description: 1, outcome: 'failed' }, ['id is missing', 'environment is missing', 'description is a number, not a string']],
    ['oops', ['is a string, not an object']],
    [null, ['is null, not an object']],
  ])('%j', (result, sentences) => {
    expect(resultProblems(result)).toEqual(sentences);
  });

  it('holds without outputs', () => {
    const { outputs: _outputs, ...withoutOutputs } = RESULT;
    expect(resultProblems(withoutOutputs)).toEqual([]);
  });
});

describe('operation.body', () => {
  it.each([
    [{ outcome: 'done', description: 7 }, ['outcome "done" is not in_progress, succeeded or failed', 'description is not a string', 'results is not an array']],
    [{ results: [] }, ['outcome is missing', 'description is not a string']],
    ['working', ['body is not a JSON object']],
  ])('%j', (body, sentences) => {
    expect(operationBodyProblems(body)).toEqual(sentences);
  });

  it('leaves results while in progress and the shape of final results to their own rules, which the schema states too', () => {
    const filled = { outcome: 'in_progress', description: 'Working.', results: [RESULT] };
    expect(operationBodyProblems(filled)).toEqual([]);
    expect(validators.operation(filled)).toBe(false);
    const badResult = { ...FINAL, results: [{ id: 'x' }] };
    expect(operationBodyProblems(badResult)).toEqual([]);
    expect(validators.operation(badResult)).toBe(false);
    expect(validators.operation({ outcome: 'in_progress', description: 'Working.', results: [] })).toBe(true);
  });
});

describe('registration.body', () => {
  it.each([
    [{ name: '', url: '/provisioner', types: [{ kind: 'managed-resource' }, 'x'] }, ['name is empty', 'url "/provisioner" is not an absolute URL', 'types[0].type is missing', 'types[1] is a string, not an object']],
    [{ url: 'ftp://example.com', types: [] }, ['name is missing', 'url "ftp://example.com" uses ftp, not http or https', 'types is empty']],
    [{ name: ' \t', url: 42, types: {} }, ['name is empty', 'url is a number, not a string', 'types is an object, not an array']],
    [{ ...REGISTRATION, types: [{ kind: ' ', type: 7 }] }, ['types[0].kind is empty', 'types[0].type is a number, not a string']],
    [{ ...REGISTRATION, url: 'mailto:ops@example.com' }, ['url "mailto:ops@example.com" uses mailto, not http or https']],
    [[REGISTRATION], ['the registration is an array, not a JSON object']],
  ])('%j', (doc, sentences) => {
    expect(registrationBodyProblems(doc)).toEqual(sentences);
  });

  it('leaves maxOperationDuration to registration.max-operation-duration, though the schema types it', () => {
    expect(registrationBodyProblems({ ...REGISTRATION, maxOperationDuration: 300 })).toEqual([]);
    expect(validators.registration({ ...REGISTRATION, maxOperationDuration: 300 })).toBe(false);
  });

  it('takes absolute http and https URLs, and nothing a URL parser would have to repair', () => {
    for (const url of ['https://p.example.com', 'http://127.0.0.1:8080', 'HTTPS://P.EXAMPLE.COM/a?b=c#d', 'http://[::1]:8080/', 'http://user:pw@p.example.com/a%20b', 'http://p.example.com:']) {
      expect(registrationBodyProblems({ ...REGISTRATION, url }), url).toEqual([]);
    }
    for (const url of ['http://', 'http://:80', 'http:p.example.com', 'http:/p', ' http://p', 'http://p ', 'http://p/a b', 'http://p:abc', 'http://bücher.de', 'http:\\\\p', '//p.example.com']) {
      expect(registrationBodyProblems({ ...REGISTRATION, url }), url).toEqual([`url ${JSON.stringify(url)} is not an absolute URL`]);
    }
  });

  // The schema checks a URL's form by a pattern, a URL parser its values: registration.body takes a url only when both do.
  const PATTERN = new RegExp(registrationSchema.properties.url.pattern, 'u');

  it('finds a url of the right form that no URL parser takes (a port or a host out of range), after the schema', () => {
    for (const url of ['http://p.example.com:99999', 'HTTP://P:65536/x', 'http://999.1.1.1', 'http://1.2.3.4.5', 'http://[1.2.3.4]', 'https://[::1::2]', 'http://%00']) {
      expect(PATTERN.test(url), url).toBe(true);
      expect(URL.canParse(url), url).toBe(false);
      expect(validators.registration({ ...REGISTRATION, url }), url).toBe(true);
      expect(registrationBodyProblems({ ...REGISTRATION, url }), url).toEqual([`url ${JSON.stringify(url)} is not an absolute URL`]);
    }
  });

  it('finds a url that a URL parser would repair but the schema\'s pattern refuses', () => {
    for (const url of ['http:p.example.com', 'http://bücher.de', 'http://p/a b', ' http://p']) {
      expect(URL.canParse(url), url).toBe(true);
      expect(PATTERN.test(url), url).toBe(false);
      expect(registrationBodyProblems({ ...REGISTRATION, url }), url).toEqual([`url ${JSON.stringify(url)} is not an absolute URL`]);
    }
  });

  it('says a url that does not parse in the schema\'s order of fields, once', () => {
    expect(registrationBodyProblems({ types: [], url: 'http://999.1.1.1' })).toEqual(['name is missing', 'url "http://999.1.1.1" is not an absolute URL', 'types is empty']);
    expect(registrationBodyProblems({ ...REGISTRATION, url: 'ftp://p:99999' })).toEqual(['url "ftp://p:99999" uses ftp, not http or https']);
  });
});
