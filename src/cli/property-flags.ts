import type { Argv } from 'yargs';
import { RUN_DEFAULTS } from '../config/defaults.js';
import { PROPERTY_CATALOG } from '../config/property-catalog.js';

/** The derived property time limit as a formula over the catalog's chains (config/property-time-limit.ts). */
function derivedLimitInWords(): string {
  const chain = Math.max(...PROPERTY_CATALOG.map((suite) => suite.chain));
  const applying = Math.max(...PROPERTY_CATALOG.map((suite) => suite.chainWhenApplying ?? suite.chain));
  const formula = (n: number): string => `${n} × (maxOperationDuration + answer timeout + 2 poll intervals)`;
  return applying > chain ? `${formula(chain)}, ${applying} × with --allow-apply-generated` : formula(chain);
}

/** The run command's flags for the property-based suites. */
export function withPropertyFlags<T>(yargs: Argv<T>): Argv<T> {
  const defaults = PROPERTY_CATALOG.map((suite) => `${suite.defaultMaxExamples} for ${suite.name}`).join(', ');
  return yargs
    .option('properties', { type: 'boolean', defaultDescription: String(RUN_DEFAULTS.properties), describe: 'Run the property-based suites (generated input, shrunk counterexamples); --no-properties runs the scenarios only' })
    .option('property', { type: 'string', requiresArg: true, describe: `Run only this property (${PROPERTY_CATALOG.map((suite) => suite.name).join(', ')})` })
    .option('seed', { type: 'string', requiresArg: true, describe: 'Seed of the property runs (default: a fresh one, always printed)' })
    .option('path', { type: 'string', requiresArg: true, describe: 'With --seed and --property: replay the one case this path names, as a failed property prints it' })
    .option('max-examples', { type: 'string', requiresArg: true, describe: `Cases per property (default: ${defaults})` })
    .option('property-time-limit', {
      type: 'string',
      requiresArg: true,
      // No yargs default: whether it was given decides if the run's --time-limit sets it instead.
      defaultDescription: `what remains of --time-limit, else what one case waits for: ${derivedLimitInWords()}`,
      describe: 'Wall-clock budget of each property, shrinking included; past it the property ends with what it found (ISO 8601). One that cannot fit a case of a given maxOperationDuration is refused',
    })
    .option('allow-apply-generated', { type: 'boolean', defaultDescription: String(RUN_DEFAULTS.allowApplyGenerated), describe: 'Also send generated change sets to POST /apply (apply changes real things)' }) as Argv<T>;
}
