import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveRunConfig } from '../../src/config/run-config.js';
import { ruleIdsField, urlField } from '../../src/config/fields.js';
import type { RunOptions } from '../../src/config/run-options.js';

function resolve(options: RunOptions) {
  return resolveRunConfig({ options, env: {}, cwd: mkdtempSync(join(tmpdir(), 'pc-usage-hints-')) });
}

describe('a flag value the kit refuses', () => {
  it('an unknown rule id is quoted, with the closest id, else the rules command', () => {
    expect(() => ruleIdsField('--only', ['answer.statuss'])).toThrow('--only: unknown rule id "answer.statuss" (did you mean answer.status?)');
    expect(() => ruleIdsField('--skip', ['nothing-like-it'])).toThrow('--skip: unknown rule id "nothing-like-it" (see the rules command)');
    expect(() => ruleIdsField('--only', ['answer.statuss,zz'])).toThrow('--only: unknown rule ids "answer.statuss", "zz" (see the rules command)');
  });

  it('a URL without its scheme suggests http://', () => {
    expect(() => urlField('--url', '127.0.0.1:33815')).toThrow('--url: "127.0.0.1:33815" is not an absolute URL (did you mean http://127.0.0.1:33815?)');
    expect(() => urlField('--url', 'localhost:8080')).toThrow('--url: "localhost:8080" is not an http or https URL (did you mean http://localhost:8080?)');
    expect(() => urlField('--url', 'ftp://example.com')).toThrow(/^--url: "ftp:\/\/example\.com" is not an http or https URL$/);
  });

  it('a whole number quotes the text the user gave', async () => {
    await expect(resolve({ reference: true, burst: 'lots' })).rejects.toThrow('--burst: "lots" is not a whole number from 0 to 1000');
  });

  it('an unknown fault is one short line: the closest fault, else where they are listed', async () => {
    await expect(resolve({ reference: true, referenceFault: 'status-409-on-aply' })).rejects.toThrow(/^--reference-fault: unknown fault "status-409-on-aply" \(did you mean status-409-on-apply\?\)$/);
    const far = resolve({ reference: true, referenceFault: 'nope' });
    await expect(far).rejects.toThrow(/^--reference-fault: unknown fault "nope" \(see serve --list-faults\)$/);
  });

  it('a config file or baseline that cannot be read is worded as every other input file', async () => {
    await expect(resolve({ reference: true, config: 'no/such/config.yaml' })).rejects.toThrow(/^--config: cannot read no\/such\/config\.yaml: no such file or folder \(ENOENT\)$/);
    await expect(resolve({ reference: true, baseline: 'no/such/baseline.yaml' })).rejects.toThrow(/^--baseline: cannot read no\/such\/baseline\.yaml: no such file or folder \(ENOENT\)$/);
  });
});
