import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  acceptedBodyProblems,
  acceptedOnlyOperationIdProblems,
  finalAnswerProblems,
  operationBodyProblems,
  registrationBodyProblems,
  resultProblems,
} from '../../src/shapes/index.js';
import { validators } from '../../src/shapes/validators.js';
import { ROOT } from '../e2e/run-cli.js';

interface RecordedExchange {
  tag: string;
  response?: { status: number; body: string };
}

/** The JSON bodies the reference provisioner gave in the recorded correct runs, by tag and status. */
function recordedBodies(tags: readonly string[], status: number): unknown[] {
  const files = readdirSync(join(ROOT, 'fixtures', 'transcripts')).filter((f) => /^correct-.*\.json$/.test(f));
  return files.flatMap((file) => {
    const { exchanges } = JSON.parse(readFileSync(join(ROOT, 'fixtures', 'transcripts', file), 'utf8')) as { exchanges: RecordedExchange[] };
    return exchanges.filter((e) => tags.includes(e.tag) && e.response?.status === status).map((e) => JSON.parse(e.response!.body) as unknown);
  });
}

function fixtureDocuments(folder: string, names?: readonly string[]): unknown[] {
  const files = readdirSync(join(ROOT, 'fixtures', folder)).filter((f) => f.endsWith('.json') && (!names || names.includes(f)));
  return files.map((f) => JSON.parse(readFileSync(join(ROOT, 'fixtures', folder, f), 'utf8')) as unknown);
}

const READ_TAGS = ['poll', 'read-concurrent', 'read-after-final'];

describe('the schemas accept what the reference provisioner answers', () => {
  it('202 answers: accepted, holding only operationId', () => {
    const bodies = recordedBodies(['plan', 'apply'], 202);
    expect(bodies.length).toBeGreaterThan(10);
    for (const body of bodies) {
      expect(acceptedBodyProblems(body)).toEqual([]);
      expect(acceptedOnlyOperationIdProblems(body)).toEqual([]);
    }
  });

  it('200 answers to plan and apply: final answers whose results all have the result shape', () => {
    const bodies = recordedBodies(['plan', 'apply'], 200);
    expect(bodies.length).toBeGreaterThan(10);
    for (const body of bodies) {
      expect(finalAnswerProblems(body)).toEqual([]);
      expect(validators.finalAnswer(body)).toBe(true);
      for (const result of (body as { results: unknown[] }).results) expect(resultProblems(result)).toEqual([]);
    }
  });

  it('200 reads, in progress and final: the operation schema as a whole', () => {
    const bodies = recordedBodies(READ_TAGS, 200);
    const outcomes = new Set(bodies.map((b) => (b as { outcome: string }).outcome));
    expect(outcomes).toContain('in_progress');
    expect(outcomes).toContain('succeeded');
    for (const body of bodies) {
      expect(operationBodyProblems(body)).toEqual([]);
      expect(validators.operation(body), JSON.stringify(validators.operation.errors)).toBe(true);
    }
  });

  it('the bundled registrations with a complete body', () => {
    const registrations = fixtureDocuments('registrations', ['reference.json', 'splunk.json', 'no-max-operation-duration.json', 'max-operation-duration-too-long.json']);
    expect(registrations).toHaveLength(4);
    for (const doc of registrations) expect(registrationBodyProblems(doc)).toEqual([]);
    expect(registrationBodyProblems(fixtureDocuments('registrations', ['no-types.json'])[0])).toEqual(['types is empty']);
  });
});
