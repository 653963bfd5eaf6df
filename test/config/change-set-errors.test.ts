import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadChangeSets, parseChangeSet } from '../../src/config/change-sets.js';
import { loadRegistration } from '../../src/config/registration.js';
import { ConfigError } from '../../src/errors.js';

function thrown(make: () => unknown): ConfigError {
  try {
    make();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('nothing was thrown');
}

describe('a change set the kit cannot use', () => {
  it('that is a JSON array is said to be one, blamed on the file, not on a pointer the user never gave', () => {
    const error = thrown(() => parseChangeSet('list.json', '[{"id": "a", "environment": "test"}]', '/changes'));
    expect(error.flag).toBe('--change-set');
    expect(error.message).toBe('--change-set: list.json is a JSON array, not a change set: a change set is a JSON object with its changes under /changes');
  });

  it('without changes under the default pointer is blamed on the file; under a pointer the user chose, on the pointer', () => {
    expect(thrown(() => parseChangeSet('a.json', '{"items": []}', '/changes')).message).toBe('--change-set: a.json has nothing at /changes (pointer /changes)');
    expect(thrown(() => parseChangeSet('a.json', '{"items": []}', '/spec/items')).flag).toBe('--changes-path');
    expect(thrown(() => parseChangeSet('a.json', '{"changes": []}', '/changes')).message).toBe('--change-set: /changes in a.json is not a non-empty array of changes');
  });

  it('that is not JSON is said to be so with the line and column of the error, and without its text', () => {
    const text = '{\n  "changes": [\n    { "id": tok-12345 }\n  ]\n}\n';
    const error = thrown(() => parseChangeSet('broken.json', text, '/changes'));
    // V8 and the kit agree on the place: `t` may start `true`, `o` cannot follow it.
    expect(error.message).toMatch(/^--change-set: broken\.json is not JSON: Unexpected token 'o' at line 3, column 14$/);
    expect(error.message).not.toContain('tok-12345');
    expect(thrown(() => parseChangeSet('cut.json', '{"changes": [', '/changes')).message).toMatch(/ at line 1, column 14$/);
  });

  it('that cannot be read says why in words', async () => {
    const missing = join(mkdtempSync(join(tmpdir(), 'pc-change-sets-')), 'missing.json');
    await expect(loadChangeSets([missing], '/changes')).rejects.toThrow(`--change-set: cannot read ${missing}: no such file or folder (ENOENT)`);
  });
});

describe('a registration document that cannot be read', () => {
  it('is named as the caller names it: a flag for a run, the argument for check-registration', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pc-registration-'));
    await expect(loadRegistration(join(dir, 'missing.json'))).rejects.toThrow(/^--registration: cannot read /);
    await expect(loadRegistration(join(dir, 'missing.json'), 'the registration document')).rejects.toThrow(/^the registration document: cannot read .*missing\.json: no such file or folder \(ENOENT\)$/);
  });

  it('that is not JSON keeps where the error is, for the rules to report', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pc-registration-')), 'r.json');
    writeFileSync(file, '{\n  "maxOperationDuration": PT5M\n}\n');
    const loaded = await loadRegistration(file);
    expect(loaded.json.ok).toBe(false);
    expect(loaded.json.ok ? '' : loaded.json.error).toMatch(/ at line 2, column 27$/);
  });
});
