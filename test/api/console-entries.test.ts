import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkRegistrationOnConsole } from '../../src/api/check-registration.js';
import { verifyOnConsole } from '../../src/api/verify.js';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** What the entry printed on stdout, nothing of it reaching the test's own output. */
function printed(): { text: () => string } {
  const chunks: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  });
  return { text: () => chunks.join('') };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the library\'s entries for the command line', () => {
  it('checkRegistrationOnConsole prints each rule and resolves to the exit code that says whether the document holds', async () => {
    const out = printed();
    expect(await checkRegistrationOnConsole({ registration: join(ROOT, 'fixtures', 'registrations', 'reference.json') })).toBe(0);
    expect(out.text()).toContain('the registration holds');
    expect(await checkRegistrationOnConsole({ registration: join(ROOT, 'fixtures', 'registrations', 'max-operation-duration-too-long.json') })).toBe(1);
    expect(out.text()).toContain('the registration does not hold');
  });

  it('verifyOnConsole judges a recording again, prints the summary and resolves to its exit code', async () => {
    const out = printed();
    const file = join(ROOT, 'fixtures', 'transcripts', 'correct-async.json');
    expect(await verifyOnConsole({ transcript: file }, { invocation: ['verify', file] })).toBe(0);
    expect(out.text()).toMatch(/verdict: pass/);
  });
});
