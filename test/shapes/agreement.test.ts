// The shape functions say what the rules' judges say today, for every body drawn here: so a judge that calls
// them keeps its notes. The judges are reached through the rule list, as the runner reaches them.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RULES } from '../../src/rules/index.js';
import type { JudgeContext } from '../../src/core/judge-context.js';
import type { Judgement } from '../../src/rules/types.js';
import type { Transcript } from '../../src/transcript/transcript.js';
import {
  acceptedBodyProblems,
  acceptedOnlyOperationIdProblems,
  finalAnswerProblems,
  operationBodyProblems,
  registrationBodyProblems,
  resultProblems,
} from '../../src/shapes/index.js';
import { OP_ID, TranscriptBuilder, context } from '../support/transcript-builder.js';

function judge(id: string, transcript: Transcript, ctx: JudgeContext = context()): Judgement {
  const rule = RULES.find((r) => r.id === id);
  if (!rule?.judge) throw new Error(`no judge for ${id}`);
  return rule.judge(transcript, ctx);
}

function notesOf(judgement: Judgement): string[] {
  return judgement.outcome === 'broken' ? judgement.evidence.map((e) => e.note) : [];
}

/** Values of every JSON type, and strings that the shapes give meaning to. */
const anyValue = fc.constantFrom<unknown>('', ' \t', 'x', 'succeeded', 'failed', 'in_progress', 'ok', 0, 42, true, null, [], ['x'], {}, { a: 1 });

/** An object with each of `fields` absent, well-formed or anything else, sometimes with an extra field. */
function objectWith(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  const record = Object.fromEntries(Object.entries(fields).map(([name, good]) => [name, fc.oneof(good, anyValue)]));
  return fc.tuple(fc.record(record, { requiredKeys: [] }), fc.option(anyValue, { nil: undefined })).map(([body, extra]) => (extra === undefined ? body : { ...body, extra }));
}

const outcome = fc.constantFrom('succeeded', 'failed');
const result = objectWith({ id: fc.constant('shop-db'), environment: fc.constant('test'), outcome, description: fc.string(), outputs: fc.constant({ host: 'h' }) });
const finalBody = objectWith({ outcome, description: fc.string(), results: fc.array(result, { maxLength: 3 }) });
const readBody = objectWith({ outcome: fc.constantFrom('in_progress', 'succeeded', 'failed'), description: fc.string(), results: fc.constant([]) });
const acceptedBody = objectWith({ operationId: fc.constant(OP_ID) });
// URLs on which a WHATWG URL parser and the schema's pattern agree; where they differ is in sentences.test.ts.
const url = fc.constantFrom('https://p.example.com', 'http://127.0.0.1:8080/x', '/provisioner', 'ftp://example.com', 'mailto:a@b', 'localhost:8080', 'p.example.com', '');
const type = objectWith({ kind: fc.constantFrom('managed-resource', ' '), type: fc.constantFrom('postgres', '') });
const registration = objectWith({ name: fc.constantFrom('p', ''), url, types: fc.array(fc.oneof(type, anyValue), { maxLength: 3 }) });

const RUNS = { numRuns: 400 };

describe('the shape functions and today\'s judges agree', () => {
  it('accepted.body and accepted.only-operation-id', () => {
    fc.assert(
      fc.property(acceptedBody, (body) => {
        const b = new TranscriptBuilder();
        b.post('plan', { status: 202, body });
        expect(notesOf(judge('accepted.body', b.transcript))).toEqual(acceptedBodyProblems(body).map((s) => `the 202 answer to POST /plan ${s}`));
        if (typeof body.operationId !== 'string') return;
        expect(notesOf(judge('accepted.only-operation-id', b.transcript))).toEqual(acceptedOnlyOperationIdProblems(body).map((s) => `the 202 answer to POST /plan ${s}`));
      }),
      RUNS,
    );
  });

  it('final.body', () => {
    fc.assert(
      fc.property(finalBody, (body) => {
        const b = new TranscriptBuilder();
        b.post('plan', { body });
        const problems = finalAnswerProblems(body);
        expect(notesOf(judge('final.body', b.transcript))).toEqual(problems.length > 0 ? [`POST /plan answered 200: ${problems.join('; ')}`] : []);
      }),
      RUNS,
    );
  });

  it('final.result-shape', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(result, anyValue), { minLength: 1, maxLength: 3 }), outcome, (results, said) => {
        const b = new TranscriptBuilder();
        b.post('plan', { body: { outcome: said, description: '', results } });
        const off = results.flatMap((r, index) => {
          const problems = resultProblems(r);
          const id = typeof r === 'object' && r !== null && !Array.isArray(r) ? (r as Record<string, unknown>).id : undefined;
          const label = typeof id === 'string' ? `result ${index} (${id})` : `result ${index}`;
          return problems.length > 0 ? [`${label}: ${problems.join(', ')}`] : [];
        });
        expect(notesOf(judge('final.result-shape', b.transcript))).toEqual(off.length > 0 ? [`POST /plan (seq 1, ${said}): ${off.join('; ')}`] : []);
      }),
      RUNS,
    );
  });

  it('operation.body', () => {
    fc.assert(
      fc.property(fc.oneof(readBody, anyValue), (body) => {
        const b = new TranscriptBuilder();
        b.post('apply', { status: 202, body: { operationId: OP_ID } });
        // The builder sends a string as raw text: send it as JSON, as the other values are.
        b.read(OP_ID, { body: typeof body === 'string' ? JSON.stringify(body) : body });
        const notes = notesOf(judge('operation.body', b.transcript));
        expect(notes.map((note) => note.slice(note.indexOf(', but ') + ', but '.length))).toEqual(
          operationBodyProblems(body).length > 0 ? [operationBodyProblems(body).join('; ')] : [],
        );
      }),
      RUNS,
    );
  });

  it('registration.body', () => {
    fc.assert(
      fc.property(registration, (doc) => {
        const ctx = context({ registration: { file: 'r.json', json: { ok: true, value: doc } } });
        expect(notesOf(judge('registration.body', new TranscriptBuilder().transcript, ctx))).toEqual(registrationBodyProblems(doc).map((p) => `r.json: ${p}`));
      }),
      RUNS,
    );
  });
});
