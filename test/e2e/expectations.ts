import { longestChain, PROPERTY_CATALOG } from '../../src/config/property-catalog.js';
import { propertyTimeLimitMs } from '../../src/config/property-time-limit.js';
import { RUN_DEFAULTS } from '../../src/config/defaults.js';
import { parsePositiveDuration, type Duration } from '../../src/core/duration.js';
import { isoOfMs } from '../../src/core/property-time-limit.js';
import type { Fault } from '../../src/reference/index.js';
import { FAULTS, runFlagsNeeded } from '../../src/reference/index.js';
import { RULES } from '../../src/rules/index.js';
import { TABLE_POLL_INTERVAL } from './reference-args.js';

/**
 * The expectations of the end-to-end tests: the real CLI against the reference provisioner, correct or with
 * one fault, and exactly which rules must not hold. A fault's rows are derived from its `breaks` and `needs`
 * and from the level of each rule it breaks, so that what a fault breaks is written in one place only.
 */
export interface Expectation {
  /** Test name: the fault (with the mode when it runs in several), or the correct mode. */
  name: string;
  mode: 'sync' | 'async' | 'mixed';
  fault?: string;
  /** Extra flags for `run`; a fault's row gives only the table's own: `--reference-fault` applies what the fault needs. */
  flags?: string[];
  /** The property that must find the fault (failed, with a replay line); every other property must hold. */
  failedProperty?: string;
  exitCode: 0 | 1;
  /** Rule ids that must come out fail, warn and advice; every other rule must not. */
  fail?: string[];
  warn?: string[];
  advice?: string[];
}

/**
 * Rows whose fault the scenarios already find still run the property suites (a fault must break its rules
 * there too), with a few cases and a short time limit for shrinking, so that the table stays quick. A row that
 * gives maxOperationDuration gets the shortest limit that fits one case of it: the kit refuses a shorter one.
 */
function fewCases(maxOperationDuration?: string): string[] {
  const limit = maxOperationDuration === undefined ? 'PT5S' : fittingPropertyTimeLimit(maxOperationDuration);
  return ['--max-examples', '4', '--property-time-limit', limit];
}

const FEW_CASES = fewCases();

function fittingPropertyTimeLimit(maxOperationDuration: string): string {
  const duration = (text: string): Duration => {
    const parsed = parsePositiveDuration(text);
    if (!parsed.ok) throw new Error(parsed.error);
    return { text: parsed.text, ms: parsed.ms };
  };
  const chain = longestChain(PROPERTY_CATALOG.map((property) => property.name), false)!.chain;
  const timing = { maxOperationDuration: { ...duration(maxOperationDuration), source: 'flag' as const }, pollInterval: duration(TABLE_POLL_INTERVAL), answerTimeout: duration(RUN_DEFAULTS.answerTimeout) };
  return isoOfMs(Math.max(5000, propertyTimeLimitMs(chain, timing)));
}

/** The maxOperationDuration a fault needs, if it needs one. */
function neededMaxOperationDuration(fault: Fault): string | undefined {
  return runFlagsNeeded(fault).find(({ flag }) => flag === '--max-operation-duration')?.value;
}

const STATUS_OF_LEVEL = { MUST: 'fail', SHOULD: 'warn', ADVICE: 'advice' } as const;

function statusWhenBroken(ruleId: string): 'fail' | 'warn' | 'advice' {
  const rule = RULES.find((r) => r.id === ruleId);
  if (!rule) throw new Error(`a fault breaks ${ruleId}, which is not a rule of the catalog`);
  return STATUS_OF_LEVEL[rule.level];
}

/** One row per mode the fault needs. */
function rowsOf(fault: Fault): Expectation[] {
  const { modes, property } = fault.needs;
  const broken: Pick<Expectation, 'fail' | 'warn' | 'advice'> = {};
  for (const id of fault.breaks) (broken[statusWhenBroken(id)] ??= []).push(id);
  return modes.map((mode) => ({
    name: modes.length > 1 ? `${fault.name} (${mode})` : fault.name,
    mode,
    fault: fault.name,
    // The property a fault needs runs with its own number of cases: fewer might miss the fault.
    flags: property ? [] : fewCases(neededMaxOperationDuration(fault)),
    ...(property ? { failedProperty: property.name } : {}),
    exitCode: broken.fail ? 1 : 0,
    ...broken,
  }));
}

const CORRECT: readonly Expectation[] = [
  { name: 'correct sync', mode: 'sync', exitCode: 0 },
  { name: 'correct async', mode: 'async', exitCode: 0 },
  { name: 'correct mixed', mode: 'mixed', exitCode: 0 },
];

const REGISTRATIONS: readonly Expectation[] = [
  {
    name: 'registration without maxOperationDuration',
    mode: 'async',
    flags: [...FEW_CASES, '--registration', 'fixtures/registrations/no-max-operation-duration.json'],
    exitCode: 1,
    fail: ['registration.max-operation-duration'],
  },
  {
    name: 'registration over PT30M',
    mode: 'mixed',
    flags: [...FEW_CASES, '--registration', 'fixtures/registrations/max-operation-duration-too-long.json'],
    exitCode: 1,
    fail: ['registration.max-operation-duration'],
  },
  {
    name: 'registration without types',
    mode: 'mixed',
    // Its registration holds PT5M.
    flags: [...fewCases('PT5M'), '--registration', 'fixtures/registrations/no-types.json'],
    exitCode: 1,
    fail: ['registration.body'],
  },
];

/** Every row: each one runs end to end, and each has a recorded transcript. */
export const EXPECTATIONS: readonly Expectation[] = [...CORRECT, ...FAULTS.flatMap(rowsOf), ...REGISTRATIONS];
