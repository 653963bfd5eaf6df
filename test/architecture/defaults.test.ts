import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveServeConfig } from '../../src/config/serve-config.js';
import { DEFAULTS } from '../../src/core/defaults.js';
import { msOfDuration } from '../../src/core/duration.js';
import { resolveOptions } from '../../src/reference/options.js';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** The one place a default is written. */
const DEFAULTS_TABLE = 'src/core/defaults.ts';
/** The layers that resolve a command and run it: a size or duration they write is a default of a command. */
const COMMAND_LAYERS = ['src/config/', 'src/cli/', 'src/api/', 'src/kit/'];
/** A reference fault names the flags it must run with (`--answer-timeout PT1S`): what it needs, not a default. */
const FAULT_NEEDS = 'src/reference/faults/';

function sourcesUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => relative(ROOT, join(ROOT, folder, name)).split('\\').join('/'));
}

/** The code of a source, comments left out: a comment may quote a duration as an example. */
function code(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

/** ISO 8601 durations written as string literals (`'PT10S'`), zero aside: nothing is no default. */
function durationLiterals(text: string): string[] {
  const found = [...code(text).matchAll(/(['"])(P(?:\d+(?:\.\d+)?[YMWD])*(?:T(?:\d+(?:\.\d+)?[HMS])+)?)\1/g)].map((match) => match[2]!);
  return found.filter((literal) => literal !== 'P' && /[1-9]/.test(literal));
}

/**
 * Sizes and durations written as numbers for a setting (`bodyLimitBytes: 1024 * 1024`, `answerTimeoutMs: 10_000`),
 * or as a fallback of milliseconds or bytes (`?? 10_000`), zero aside: what a resolver must take from the
 * defaults table. A small fallback (`columns ?? 100`) is no size of the kit's.
 */
function numericDefaults(text: string): string[] {
  const setting = /\b\w*(?:ms|bytes|timeout|interval|every|duration|work)\s*[:=]\s*(\d[\d_]*(?:\s*\*\s*\d[\d_]*)*)/gi;
  const fallback = /\?\?\s*(\d{1,3}(?:_\d{3})+|\d{4,}|\d+\s*\*\s*\d+)(?:\s*\*\s*\d[\d_]*)*/g;
  return [...code(text).matchAll(setting), ...code(text).matchAll(fallback)].map((match) => match[0]!.trim()).filter((written) => /[1-9]/.test(written.replace(/^[^:=?]*[:=?]+/, '')));
}

describe('defaults', () => {
  it('no module but the defaults table writes a duration as text', () => {
    const files = sourcesUnder('src').filter((file) => file !== DEFAULTS_TABLE && !file.startsWith(FAULT_NEEDS));
    expect(files.length).toBeGreaterThan(100);
    const written = files.flatMap((file) => durationLiterals(readFileSync(join(ROOT, file), 'utf8')).map((literal) => `${file}: ${literal}`));
    expect(written).toEqual([]);
  });

  it('the command layers write no size or duration as a number: they read the defaults table', () => {
    const files = COMMAND_LAYERS.flatMap(sourcesUnder).filter((file) => file !== DEFAULTS_TABLE);
    expect(files).toContain('src/config/observe-config.ts');
    const written = files.flatMap((file) => numericDefaults(readFileSync(join(ROOT, file), 'utf8')).map((setting) => `${file}: ${setting}`));
    expect(written).toEqual([]);
  });

  it('the defaults table holds what the checks look for', () => {
    const table = readFileSync(join(ROOT, DEFAULTS_TABLE), 'utf8');
    expect(durationLiterals(table)).toContain('PT10S');
    expect(numericDefaults(table)).toContain('bodyLimitBytes: 1024 * 1024');
  });

  it('the reference provisioner served from code leaves out what serve leaves out: the same defaults, read from the table', () => {
    const fromCode = resolveOptions({});
    const { host, port, mode, workMs, maxOperations, maxOperationDurationMs } = resolveServeConfig({});
    expect({ host, port, mode, workMs, maxOperations, maxOperationDurationMs }).toEqual({
      host: fromCode.host,
      port: fromCode.port,
      mode: fromCode.mode,
      workMs: fromCode.workMs,
      maxOperations: fromCode.maxOperations,
      maxOperationDurationMs: fromCode.maxOperationDurationMs,
    });
    expect(fromCode.workMs).toBe(msOfDuration(DEFAULTS.serveWork));
  });

  it('are told when written elsewhere, and not for a comment, a zero or a bound', () => {
    const source = [
      "const answerTimeoutMs = duration(flags.answerTimeout ?? 'PT10S');",
      'const settings = { pollIntervalMs: 10_000, bodyLimitBytes: 1024 * 1024, port: options.port ?? 0 };',
      'const every = given ?? 60_000; const columns = stream.columns ?? 100; const SEED_LIMIT = 2 ** 31;',
      '// e.g. PT5M, or `PT1S`',
      "const zero = 'PT0S'; const answerTimeoutMs = 0;",
    ].join('\n');
    expect(durationLiterals(source)).toEqual(['PT10S']);
    expect(numericDefaults(source)).toEqual(['pollIntervalMs: 10_000', 'bodyLimitBytes: 1024 * 1024', '?? 60_000']);
  });
});
