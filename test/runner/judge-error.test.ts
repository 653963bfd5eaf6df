import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterEach, describe, expect, it, vi } from 'vitest';
import schema from '../../schemas/report.schema.json' with { type: 'json' };
import { main } from '../../src/cli/main.js';
import { bundledChangeSetFiles, loadChangeSets } from '../../src/config/change-sets.js';
import { kitIdentity } from '../../src/core/package.js';
import { startReferenceProvisioner } from '../../src/reference/index.js';
import { buildJsonReport } from '../../src/report/json-report.js';
import { renderJunit } from '../../src/report/junit.js';
import { judgeRules } from '../../src/rules/index.js';
import { driveAndJudge } from '../../src/runner/drive-and-judge.js';
import { writeTranscriptFile } from '../../src/transcript/transcript-file.js';
import { context, TranscriptBuilder, shopDbFinal } from '../support/transcript-builder.js';

// A judge with a bug: the rule module is replaced in this test only, so the kit itself has no switch for it.
vi.mock('../../src/rules/catalog/operation-final.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/rules/catalog/operation-final.js')>();
  const throwing = (): never => {
    throw new TypeError("Cannot read properties of undefined (reading 'results')");
  };
  const operationFinalStable = { ...actual.operationFinalStable, judge: throwing };
  // The rulebook reads the family's list: the throwing judge takes the rule's place there too.
  return { ...actual, operationFinalStable, RULES: actual.RULES.map((rule) => (rule === actual.operationFinalStable ? operationFinalStable : rule)) };
});

const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;
const RULE = 'operation.final-stable';
const { version } = kitIdentity();

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

function planned(): TranscriptBuilder {
  const b = new TranscriptBuilder();
  b.post('plan', { body: shopDbFinal(), changeSet: 'shop-db' });
  return b;
}

describe('a judge that throws', () => {
  it('reports its rule as an error of the kit, naming the rule and the kit version, and judges the others', () => {
    const results = judgeRules(planned().transcript, context());
    const failed = results.find((r) => r.id === RULE)!;
    expect(failed.status).toBe('error');
    expect(failed.message).toContain(RULE);
    expect(failed.message).toContain(version);
    expect(failed.message).toContain('KIT_INTERNAL');
    expect(failed.message).toContain("Cannot read properties of undefined (reading 'results')");
    expect(results.find((r) => r.id === 'answer.status')!.status).toBe('pass');
  });

  it('makes verify FILE end with verdict error and exit code 2, never pass', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'judge-error-'));
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
    const file = join(folder, 'transcript.json');
    const { transcript } = planned();
    await writeTranscriptFile(file, transcript.exchanges, transcript.events, context());
    const out: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out.push(String(chunk));
      return true;
    });
    const exitCode = await main(['verify', file]);
    const text = out.join('');
    expect(exitCode).toBe(2);
    expect(text).toContain('verdict: error (exit 2)');
    expect(text).toMatch(new RegExp(`✗ error +${RULE.replace('.', '\\.')}`));
    expect(text).toContain(`failed while judging ${RULE}`);
    expect(text).toContain(version);
  });

  it('makes a run end with verdict error and exit code 2, in every report', async () => {
    const reference = await startReferenceProvisioner({ mode: 'sync', workMs: 10 });
    cleanups.push(() => reference.close());
    const outcome = await driveAndJudge({
      url: reference.url,
      headers: {},
      changeSets: await loadChangeSets(await bundledChangeSetFiles(), '/changes'),
      changesPointer: '/changes',
      maxOperationDuration: { ms: 10_000, text: 'PT10S', source: 'flag' },
      pollInterval: { text: 'PT0.05S', ms: 50 },
      answerTimeout: { text: 'PT2S', ms: 2000 },
      planOnly: false,
      strict: false,
      showSecrets: false,
    });
    expect(outcome.verdict).toBe('error');
    expect(outcome.exitCode).toBe(2);
    expect(outcome.summary.errors).toBe(1);
    expect(outcome.conclusions[0]).toContain(RULE);
    expect(outcome.conclusions[0]).toContain(version);
    expect(outcome.rules.filter((r) => r.status === 'fail')).toEqual([]);

    const report = buildJsonReport(outcome);
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(report.rules.find((r) => r.id === RULE)!.status).toBe('error');
    expect(renderJunit(outcome)).toMatch(new RegExp(`<testcase name="${RULE.replace('.', '\\.')}"[^>]*>\\s*<error type="KIT_INTERNAL"`));
  });
});
