import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../e2e/run-cli.js';

const GENERATED = join(ROOT, 'src', 'shapes', 'generated');

describe('the generated validators', () => {
  it('are up to date with schemas/*.json (run `npm run build` after changing a schema)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'shapes-'));
    try {
      execFileSync(process.execPath, [join(ROOT, 'scripts', 'generate-validators.mjs'), dir], { cwd: ROOT });
      const fresh = readdirSync(dir).sort();
      expect(fresh).toEqual(readdirSync(GENERATED).sort());
      for (const file of fresh) {
        expect(readFileSync(join(GENERATED, file), 'utf8'), `src/shapes/generated/${file} is stale`).toBe(readFileSync(join(dir, file), 'utf8'));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('need only ajv\'s small runtime helpers, never ajv itself: nothing is compiled when the kit starts', () => {
    const code = readFileSync(join(GENERATED, 'validators.ts'), 'utf8');
    const required = [...code.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]);
    for (const name of required) expect(name).toMatch(/^ajv\/dist\/runtime\//);
    expect(code).not.toMatch(/\bimport\b[^;]*from "ajv"/);
    expect(code).not.toMatch(/new Function|\beval\(/);
  });
});
