import type { Quirks } from '../support/situation-provisioners.js';

/**
 * Provisioners written apart from the kit and the reference, each correct or broken in one way that
 * only the repeat and burst suites provoke, and exactly which rules must not hold against them.
 */
export interface SituationExpectation {
  name: string;
  quirks: Quirks;
  /** Extra flags for `run`. */
  flags?: string[];
  exitCode: 0 | 1;
  fail?: string[];
  warn?: string[];
  /** Rules that must pass: the situation was driven and judged. */
  pass: string[];
}

/** Work of a second: long enough that a repeat lands while the first apply runs, short enough for a test. */
const WORK_MS = 1000;
const FULL_AT = 10;

export const SITUATION_EXPECTATIONS: readonly SituationExpectation[] = [
  {
    name: 'correct and asynchronous',
    quirks: { workMs: WORK_MS },
    exitCode: 0,
    pass: ['apply.idempotent', 'apply.repeat-while-running', 'plan.repeatable', 'capacity.burst'],
  },
  {
    name: 'new outputs on every apply',
    quirks: { workMs: WORK_MS, outputs: (generation) => ({ resourceId: `res-${generation}`, port: 5432 }) },
    exitCode: 1,
    fail: ['apply.idempotent'],
    pass: ['apply.repeat-while-running', 'plan.repeatable', 'capacity.burst'],
  },
  {
    name: '409 to an apply that already ended',
    quirks: { workMs: WORK_MS, applyAgain: { ended: 'conflict' } },
    exitCode: 1,
    fail: ['apply.idempotent'],
    pass: ['answer.status', 'apply.repeat-while-running', 'plan.repeatable', 'capacity.burst'],
  },
  {
    name: 'already running',
    quirks: { workMs: WORK_MS, applyAgain: { running: 'already-running' } },
    exitCode: 0,
    warn: ['apply.repeat-while-running'],
    pass: ['apply.idempotent', 'plan.repeatable', 'capacity.burst'],
  },
  {
    name: 'drifting plans',
    quirks: { workMs: WORK_MS, driftingPlans: true },
    exitCode: 0,
    warn: ['plan.repeatable'],
    pass: ['apply.idempotent', 'apply.repeat-while-running', 'capacity.burst'],
  },
  {
    name: '503 when full',
    quirks: { workMs: WORK_MS, capacity: { limit: FULL_AT, whenFull: 503 } },
    exitCode: 1,
    fail: ['capacity.burst'],
    pass: ['answer.status', 'plan.repeatable'],
  },
  {
    name: '429 when full',
    quirks: { workMs: WORK_MS, capacity: { limit: FULL_AT, whenFull: 429 } },
    exitCode: 1,
    fail: ['capacity.burst'],
    pass: ['answer.status', 'plan.repeatable'],
  },
  {
    name: 'runs at once when full',
    quirks: { workMs: WORK_MS, capacity: { limit: FULL_AT, whenFull: 'run-at-once' } },
    exitCode: 0,
    pass: ['answer.status', 'apply.idempotent', 'plan.repeatable', 'capacity.burst'],
  },
];

/** Two change sets, scenarios only, a burst twice the capacity of the limited ones. */
export const SITUATION_FLAGS = [
  '--no-properties',
  '--poll-interval',
  'PT0.2S',
  '--max-operation-duration',
  'PT20S',
  '--burst',
  String(FULL_AT * 2),
  '--change-set',
  'fixtures/change-sets/postgres.json',
  '--change-set',
  'fixtures/change-sets/splunk-index.json',
];
