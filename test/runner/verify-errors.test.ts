import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { verifyTranscript } from '../../src/runner/verify.js';

const DIR = mkdtempSync(join(tmpdir(), 'pc-verify-errors-'));

function file(name: string, text: string): string {
  const path = join(DIR, name);
  writeFileSync(path, text);
  return path;
}

async function rejection(path: string): Promise<ConfigError> {
  const error = await verifyTranscript(path, {}).catch((thrown: unknown) => thrown);
  expect(error).toBeInstanceOf(ConfigError);
  expect((error as ConfigError).code).toBe('KIT_CONFIG');
  return error as ConfigError;
}

describe('a transcript verify cannot judge', () => {
  it('that is missing is named, with why in words', async () => {
    expect((await rejection(join(DIR, 'missing.json'))).message).toBe(`transcript: cannot read ${join(DIR, 'missing.json')}: no such file or folder (ENOENT)`);
  });

  it('that is not JSON is named with where, without its text', async () => {
    const path = file('broken.json', '{\n  "format": tok-12345\n}');
    const error = await rejection(path);
    expect(error.message).toMatch(new RegExp(`^transcript: cannot read ${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: it is not JSON: .* at line 2, column 14$`));
    expect(error.message).not.toContain('12345');
  });

  it('that is JSON but no transcript of this kit is said to be so, null and arrays included', async () => {
    for (const [name, text] of [['other.json', '{"format": "something/else"}'], ['null.json', 'null'], ['list.json', '[]']]) {
      const path = file(name, text);
      expect((await rejection(path)).message).toBe(`transcript: ${path} is not a transcript file of this kit`);
    }
  });
});
