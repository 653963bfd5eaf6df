import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderSummary } from '../../src/report/console.js';
import { SecretMask } from '../../src/report/secret-mask.js';
import { writeOutputs } from '../../src/report/write-outputs.js';
import { sampleOutcome } from './outcome-fixture.js';

const masks = { shown: new SecretMask(), secrets: new SecretMask(), bundleSettings: {} };

describe('the outputs of a run', () => {
  it.skipIf(!existsSync('/dev/full'))('are all written but the one the disk refuses, which is named with its flag and a stable code', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pc-write-outputs-'));
    const outputs = { report: '/dev/full', junit: join(dir, 'junit.xml'), html: join(dir, 'report.html'), transcript: join(dir, 'transcript.json'), bundle: join(dir, 'bundle') };
    const missing = await writeOutputs(outputs, sampleOutcome(), masks);
    expect(missing.map((output) => output.kind)).toEqual(['report']);
    expect(missing[0]!.description).toBe('the JSON report /dev/full');
    expect(missing[0]!.error.code).toBe('KIT_OUTPUT');
    expect(missing[0]!.error.message).toBe('--report /dev/full: cannot write it: no space left on the device (ENOSPC)');
    expect(readdirSync(dir).sort()).toEqual(['bundle', 'junit.xml', 'report.html', 'transcript.json']);
    expect(readdirSync(join(dir, 'bundle'))).toContain('manifest.json');
  });

  it('name a folder that became a file after the check as missing, not as a bug in the kit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pc-write-outputs-'));
    const missing = await writeOutputs({ bundle: '/dev/null/bundle', junit: join(dir, 'junit.xml') }, sampleOutcome(), masks);
    expect(missing.map((output) => [output.kind, output.error.flag])).toEqual([['bundle', '--bundle']]);
    expect(missing[0]!.error.message).toMatch(/^--bundle \/dev\/null\/bundle: cannot write it: a part of the path is a file, not a folder \((ENOTDIR|EEXIST)\)$/);
    expect(existsSync(join(dir, 'junit.xml'))).toBe(true);
  });
});

describe('the verdict line', () => {
  it('says which output is missing, and an exit code that says so too', () => {
    const text = renderSummary(sampleOutcome({ verdict: 'pass', exitCode: 0 }), { color: false, missingOutputs: ['the JSON report /dev/full'] });
    expect(text).toContain('verdict: pass, but the JSON report /dev/full could not be written (exit 2)');
    expect(text).not.toContain('(exit 0)');
  });
});
