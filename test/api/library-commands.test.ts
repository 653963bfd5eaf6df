import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkRegistration, ConfigError, OutputError, startObserver, startReferenceProvisioner, UsageError, verifyHarFile, verifyRecording } from '../../src/index.js';
import { parseTranscriptFile } from '../../src/transcript/transcript-file.js';
import { harOf } from '../support/har-of.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const REGISTRATIONS = join(ROOT, 'fixtures', 'registrations');
const TRANSCRIPTS = join(ROOT, 'fixtures', 'transcripts');

function folder(): string {
  return mkdtempSync(join(tmpdir(), 'pc-library-commands-'));
}

describe('checkRegistration, the library\'s check-registration', () => {
  it('holds for the reference\'s registration, and not for one whose maxOperationDuration is too long, naming the rule', async () => {
    const held = await checkRegistration({ registration: join(REGISTRATIONS, 'reference.json') });
    expect(held.holds).toBe(true);
    expect(held.rules.length).toBeGreaterThan(0);
    expect(held.rules.every((rule) => rule.id.startsWith('registration.'))).toBe(true);
    const tooLong = await checkRegistration({ registration: join(REGISTRATIONS, 'max-operation-duration-too-long.json') });
    expect(tooLong.holds).toBe(false);
    expect(tooLong.rules.find((rule) => rule.id === 'registration.max-operation-duration')?.status).toBe('fail');
  });

  it('rejects a document it cannot read with a config error naming it', async () => {
    await expect(checkRegistration({ registration: join(folder(), 'none.json') })).rejects.toThrow(ConfigError);
    await expect(checkRegistration({ registration: join(folder(), 'none.json') })).rejects.toThrow(/the registration document/);
  });
});

describe('verifyRecording, the library\'s verify of a transcript or a bundle', () => {
  it('judges a recorded transcript again and writes the report asked for, as the command does', async () => {
    const dir = folder();
    const verdict = await verifyRecording({ transcript: join(TRANSCRIPTS, 'correct-async.json'), report: join(dir, 'report.json') });
    expect(verdict.kind).toBe('judged');
    if (verdict.kind !== 'judged') return;
    expect(verdict.report.verdict).toBe('pass');
    const written = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { verdict: string; rules: unknown[] };
    expect(written.verdict).toBe('pass');
    expect(written.rules).toHaveLength(verdict.report.rules.length);
  });

  it('checks an output path before it reads anything, and refuses a transcript and a HAR file at once', async () => {
    await expect(verifyRecording({ transcript: join(folder(), 'none.json'), report: '/dev/null/report.json' })).rejects.toThrow(/^--report: /);
    await expect(verifyRecording({ transcript: join(folder(), 'none.json'), only: ['answer.statuss'] })).rejects.toThrow(UsageError);
    await expect(verifyHarFile({ har: 'traffic.har', transcript: 'run.json' } as Parameters<typeof verifyHarFile>[0])).rejects.toThrow(/^--har: .*give one or the other/);
  });
});

describe('verifyHarFile, the library\'s verify --har', () => {
  it('judges recorded traffic as observed traffic, with the control plane\'s poll interval in its settings', async () => {
    const dir = folder();
    const { transcript } = parseTranscriptFile(readFileSync(join(TRANSCRIPTS, 'non-uuid-operation-id.json'), 'utf8'), 'non-uuid-operation-id.json');
    const har = join(dir, 'traffic.har');
    writeFileSync(har, harOf(transcript.exchanges));
    const report = await verifyHarFile({ har, maxOperationDuration: 'PT20S' });
    expect(report.verdict).toBe('fail');
    expect(report.rules.filter((rule) => rule.status === 'fail').map((rule) => rule.id)).toContain('accepted.operation-id-uuid');
    expect(report.settings.pollInterval).toBe(10_000);
  });
});

describe('startObserver, when an output cannot be written at its end', () => {
  it('stop() rejects with an output error naming the flag, as a run\'s does', async () => {
    const reference = await startReferenceProvisioner({ mode: 'sync' });
    const dir = folder();
    try {
      const junit = join(dir, 'junit.xml');
      const observer = await startObserver({ upstream: reference.url, junit });
      // The path was writable when the observer started; a folder taken its place since is the disk's answer, not a bug.
      mkdirSync(junit);
      const stopped = observer.stop();
      await expect(stopped).rejects.toBeInstanceOf(OutputError);
      await expect(stopped).rejects.toThrow(/^--junit /);
    } finally {
      await reference.close();
    }
  });
});
