// The judges' verdicts agree with the published schemas. Each schema file is compiled here by ajv itself, apart
// from the generated validators the kit runs, and trimmed of what the contract gives to another rule; a
// generated body is then broken for a rule exactly when that schema rejects it. The judges are reached through
// the rule list, as the runner reaches them, so a judge that checked a shape by hand, or left part of its
// schema out, would disagree here.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import Ajv2020 from 'ajv/dist/2020.js';
import { RULES } from '../../src/rules/index.js';
import type { JudgeContext } from '../../src/core/judge-context.js';
import type { Judgement } from '../../src/rules/types.js';
import type { Transcript } from '../../src/transcript/transcript.js';
import { ROOT } from '../e2e/run-cli.js';
import { OP_ID, TranscriptBuilder, context } from '../support/transcript-builder.js';

type Schema = Record<string, unknown> & { $id: string; properties: Record<string, unknown> };

function schemaFile(name: string): Schema {
  return JSON.parse(readFileSync(join(ROOT, 'schemas', `${name}.schema.json`), 'utf8')) as Schema;
}

const accepted = schemaFile('accepted');
const finalAnswer = schemaFile('final-answer');
const operation = schemaFile('operation');
const registration = schemaFile('registration');

const ajv = new Ajv2020.default({ allErrors: true, strict: true });
for (const schema of [accepted, finalAnswer, operation, registration]) ajv.addSchema(schema);

/** A schema file with parts taken out: what is left is what one rule judges. */
function without(schema: Schema, name: string, trim: (copy: Schema) => void): (value: unknown) => boolean {
  const copy = structuredClone(schema);
  trim(copy);
  copy.$id = `https://agreement.test.invalid/${name}.json`;
  return ajv.compile(copy);
}

function part(schema: Schema, pointer: string): (value: unknown) => boolean {
  const validate = ajv.getSchema(`${schema.$id}${pointer}`);
  if (!validate) throw new Error(`no schema at ${schema.$id}${pointer}`);
  return validate;
}

/** What each rule judges, by the schema files. */
const SCHEMA_OF = {
  'accepted.body': part(accepted, ''),
  'accepted.only-operation-id': part(accepted, '#/$defs/onlyOperationId'),
  // The shape of each result is final.result-shape's.
  'final.body': without(finalAnswer, 'final-body', (s) => delete (s.properties.results as Record<string, unknown>).items),
  'final.result-shape': part(finalAnswer, '#/$defs/result'),
  // Results while in progress are operation.in-progress-results-empty's, final results' shape final.result-shape's.
  'operation.body': without(operation, 'operation-body', (s) => delete s.allOf),
  // maxOperationDuration is registration.max-operation-duration's.
  'registration.body': without(registration, 'registration-body', (s) => delete s.properties.maxOperationDuration),
} as const;

type RuleId = keyof typeof SCHEMA_OF;

function judge(id: RuleId, transcript: Transcript, ctx: JudgeContext = context()): Judgement {
  const rule = RULES.find((r) => r.id === id);
  if (!rule) throw new Error(`no rule ${id}`);
  return rule.judge(transcript, ctx);
}

/** How often each verdict came up: a property whose bodies all hold, or all fail, says nothing. */
class Tally {
  held = 0;
  broken = 0;

  /** The judgement's verdict, checked to be one of the two and counted. */
  verdict(judgement: Judgement): boolean {
    expect(['held', 'broken']).toContain(judgement.outcome);
    const isBroken = judgement.outcome === 'broken';
    if (isBroken) this.broken++;
    else this.held++;
    return isBroken;
  }

  expectBoth(): void {
    expect(this.held, 'bodies that hold').toBeGreaterThan(20);
    expect(this.broken, 'bodies that are broken').toBeGreaterThan(20);
  }
}

/** Values of every JSON type, and strings that the schemas give meaning to. */
const anyValue = fc.oneof(
  fc.constantFrom<unknown>('', ' \t', 'x', 'succeeded', 'failed', 'in_progress', 'ok', 0, 42, true, null, [], ['x'], {}, { a: 1 }),
  fc.jsonValue({ maxDepth: 2 }),
);

/**
 * An object with each of `fields` well-formed or anything else, sometimes with an extra field; a field not in
 * `present` may be absent too.
 */
function objectWith(fields: Record<string, fc.Arbitrary<unknown>>, present: string[] = []): fc.Arbitrary<Record<string, unknown>> {
  const record = Object.fromEntries(Object.entries(fields).map(([name, good]) => [name, fc.oneof({ weight: 6, arbitrary: good }, { weight: 1, arbitrary: anyValue })]));
  return fc
    .tuple(fc.record(record, { requiredKeys: present }), fc.option(anyValue, { nil: undefined, freq: 2 }))
    .map(([body, extra]) => (extra === undefined ? body : { ...body, extra }));
}

const outcome = fc.constantFrom('succeeded', 'failed');
const result = objectWith({ id: fc.string(), environment: fc.string(), outcome, description: fc.string(), outputs: fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }) });
const finalBody = objectWith({ outcome: fc.constantFrom('succeeded', 'failed', 'in_progress'), description: fc.string(), results: fc.array(fc.oneof(result, anyValue), { maxLength: 3 }) });
const readBody = objectWith({
  outcome: fc.constantFrom('in_progress', 'succeeded', 'failed'),
  description: fc.string(),
  results: fc.array(fc.oneof(result, anyValue), { maxLength: 2 }),
});
const acceptedBody = objectWith({ operationId: fc.oneof(fc.constant(OP_ID), fc.string()) });
// Where the schema's pattern and a URL parser disagree, both ways, besides URLs either takes.
const url = fc.oneof(
  { weight: 6, arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }) },
  // Weighted up: a document must hold otherwise for its URL to be the parser's alone to refuse, and 500 runs must meet some.
  { weight: 3, arbitrary: fc.constantFrom('https://p.example.com', 'http://127.0.0.1:8080/x', 'http://p:99999', 'http://999.1.1.1', 'http://[1.2.3.4]') },
  fc.constantFrom('http:p.example.com', 'http://bücher.de', 'http://p/a b', ' http://p', '/provisioner', 'ftp://example.com', 'mailto:a@b', 'localhost:8080', ''),
);
const kindOrType = fc.oneof({ weight: 8, arbitrary: fc.string({ minLength: 1 }) }, { weight: 1, arbitrary: fc.constantFrom('', ' ', '\t\n') });
const type = objectWith({ kind: kindOrType, type: kindOrType }, ['kind', 'type']);
// Three fields present, each mostly well-formed: else almost no document would hold.
const registrationDoc = objectWith(
  {
    name: kindOrType,
    url,
    types: fc.array(fc.oneof({ weight: 6, arbitrary: type }, { weight: 1, arbitrary: anyValue }), { maxLength: 3 }),
    maxOperationDuration: fc.constantFrom('PT5M', 'PT45M', 300, ''),
  },
  ['name', 'url', 'types'],
);

const RUNS = { numRuns: 500 };

describe('a body is broken for a rule exactly when the rule\'s part of its schema file rejects it', () => {
  it('accepted.body, and accepted.only-operation-id for the bodies accepted.body takes', () => {
    const body = new Tally();
    const only = new Tally();
    fc.assert(
      fc.property(acceptedBody, (value) => {
        const b = new TranscriptBuilder();
        b.post('plan', { status: 202, body: value });
        expect(body.verdict(judge('accepted.body', b.transcript))).toBe(!SCHEMA_OF['accepted.body'](value));
        if (!SCHEMA_OF['accepted.body'](value)) return;
        expect(only.verdict(judge('accepted.only-operation-id', b.transcript))).toBe(!SCHEMA_OF['accepted.only-operation-id'](value));
      }),
      RUNS,
    );
    body.expectBoth();
    only.expectBoth();
  });

  it('final.body', () => {
    const tally = new Tally();
    fc.assert(
      fc.property(finalBody, (value) => {
        const b = new TranscriptBuilder();
        b.post('plan', { body: value });
        expect(tally.verdict(judge('final.body', b.transcript))).toBe(!SCHEMA_OF['final.body'](value));
      }),
      RUNS,
    );
    tally.expectBoth();
  });

  it('final.result-shape, result by result', () => {
    const tally = new Tally();
    fc.assert(
      fc.property(fc.array(fc.oneof({ weight: 9, arbitrary: result }, { weight: 1, arbitrary: anyValue }), { minLength: 1, maxLength: 2 }), outcome, (results, said) => {
        const b = new TranscriptBuilder();
        b.post('plan', { body: { outcome: said, description: '', results } });
        const judgement = judge('final.result-shape', b.transcript);
        const rejected = results.filter((r) => !SCHEMA_OF['final.result-shape'](r)).length;
        expect(tally.verdict(judgement)).toBe(rejected > 0);
        if (judgement.outcome === 'broken') expect(judgement.count).toBe(rejected);
      }),
      RUNS,
    );
    tally.expectBoth();
  });

  it('operation.body', () => {
    const tally = new Tally();
    fc.assert(
      fc.property(fc.oneof({ weight: 4, arbitrary: readBody }, { weight: 1, arbitrary: anyValue }), (value) => {
        const b = new TranscriptBuilder();
        b.post('apply', { status: 202, body: { operationId: OP_ID } });
        // The builder sends a string as raw text: send it as JSON, as the other values are.
        b.read(OP_ID, { body: typeof value === 'string' ? JSON.stringify(value) : value });
        expect(tally.verdict(judge('operation.body', b.transcript))).toBe(!SCHEMA_OF['operation.body'](value));
      }),
      RUNS,
    );
    tally.expectBoth();
  });

  it('registration.body: the schema, then a URL parser', () => {
    const tally = new Tally();
    let parserOnly = 0;
    fc.assert(
      fc.property(fc.oneof({ weight: 6, arbitrary: registrationDoc }, { weight: 1, arbitrary: anyValue }), (doc) => {
        const ctx = context({ registration: { file: 'r.json', json: { ok: true, value: doc } } });
        const bySchema = SCHEMA_OF['registration.body'](doc);
        // The schema takes only a document with a string url: only then is there one to parse.
        const parses = bySchema && URL.canParse((doc as { url: string }).url);
        if (bySchema && !parses) parserOnly++;
        expect(tally.verdict(judge('registration.body', new TranscriptBuilder().transcript, ctx))).toBe(!(bySchema && parses));
      }),
      RUNS,
    );
    tally.expectBoth();
    expect(parserOnly, 'documents only the URL parser refuses').toBeGreaterThan(0);
  });
});
