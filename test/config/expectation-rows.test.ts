import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yargs from 'yargs';
import { describe, expect, it } from 'vitest';
import { givenOptions, withRunFlags, type RunArgs } from '../../src/cli/run-flags.js';
import { resolveRunConfig } from '../../src/config/run-config.js';
import { EXPECTATIONS } from '../e2e/expectations.js';
import { argsFor } from '../e2e/reference-args.js';

const CWD = mkdtempSync(join(tmpdir(), 'pc-expectation-rows-'));

/** The end-to-end table's rows as the CLI resolves them: a row the resolver refuses would fail the table only after its slow runs. */
describe('every row of the end-to-end expectations table', () => {
  it.each(EXPECTATIONS.map((row) => [row.name, row] as const))('%s resolves', async (_name, row) => {
    const [, ...flags] = argsFor(row);
    const args = (await withRunFlags(yargs()).strict().parseAsync(flags)) as RunArgs;
    await expect(resolveRunConfig({ options: givenOptions(args), env: {}, cwd: CWD })).resolves.toBeDefined();
  });
});
