import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yargs from 'yargs';
import { describe, expect, it } from 'vitest';
import { applyFaultNeeds } from '../../src/config/reference-fault-needs.js';
import { givenOptions, withRunFlags, type RunArgs } from '../../src/cli/run-flags.js';
import { resolveRunConfig } from '../../src/config/run-config.js';
import { EXPECTATIONS } from '../e2e/expectations.js';
import { argsFor } from '../e2e/reference-args.js';

const CWD = mkdtempSync(join(tmpdir(), 'pc-expectation-rows-'));

/**
 * The end-to-end table's rows as the CLI resolves them, with what `--reference-fault` needs applied: a row the
 * resolver refuses, or whose own flags contradict its fault's needs, would fail the table only after its slow runs.
 */
describe('every row of the end-to-end expectations table', () => {
  it.each(EXPECTATIONS.map((row) => [row.name, row] as const))('%s resolves', async (_name, row) => {
    const [, ...flags] = argsFor(row);
    const args = (await withRunFlags(yargs()).strict().parseAsync(flags)) as RunArgs;
    const { options } = applyFaultNeeds(givenOptions(args));
    await expect(resolveRunConfig({ options, env: {}, cwd: CWD })).resolves.toBeDefined();
  });
});
