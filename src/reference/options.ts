import { DEFAULTS } from '../core/defaults.js';
import { msOfDuration } from '../core/duration.js';
import type { FaultName } from './faults/index.js';
import { FAULTS, isFaultName } from './faults/index.js';
import { REFERENCE_MODES, type ReferenceMode } from './mode.js';

export interface ReferenceOptions {
  /** Default: the defaults table's `referenceMode`, as `serve` has it. */
  mode?: ReferenceMode;
  /** How long the work behind a 202 takes, ms. Default: the defaults table's `serveWork`, as `serve` has it. */
  workMs?: number;
  /** A name from FAULTS; undefined runs the correct provisioner. */
  fault?: string;
  /** Default: the defaults table's `serveHost`. */
  host?: string;
  /** Default: the defaults table's `servePort` (0, a free port). */
  port?: number;
  /** How long the 'slow-answers' fault holds each answer, ms. Default 1500. */
  slowAnswerMs?: number;
  /** Most operations in progress at one time; when that many are, a call runs at once and answers 200. Default: the defaults table's `referenceMaxOperations`. */
  maxOperations?: number;
  /**
   * The registered longest wait, ms (default: the defaults table's `maxOperationDuration`). An operation is forgotten once this much time has passed
   * since its work ended, that is since its final answer became readable: never sooner.
   */
  maxOperationDurationMs?: number;
  /** A file that keeps the operations across restarts of the process. Without it they live in memory (and survive restart()). */
  storeFile?: string;
  /** How long restart() refuses connections between closing and opening again, ms. Default 100. */
  restartPauseMs?: number;
}

export interface ResolvedOptions {
  mode: ReferenceMode;
  workMs: number;
  fault: FaultName | undefined;
  host: string;
  port: number;
  slowAnswerMs: number;
  maxOperations: number;
  maxOperationDurationMs: number;
  storeFile: string | undefined;
  restartPauseMs: number;
}

/** Fills in defaults and rejects values that would make the reference misbehave in ways no fault asked for. */
export function resolveOptions(options: ReferenceOptions): ResolvedOptions {
  const fault = options.fault;
  if (fault !== undefined && !isFaultName(fault)) {
    throw new Error(`unknown fault "${fault}"; known faults: ${FAULTS.map((f) => f.name).join(', ')}`);
  }
  const mode = options.mode ?? DEFAULTS.referenceMode;
  if (!REFERENCE_MODES.includes(mode)) {
    throw new Error(`unknown mode "${String(mode)}"; known modes: ${REFERENCE_MODES.join(', ')}`);
  }
  return {
    mode,
    fault,
    workMs: nonNegative('workMs', options.workMs ?? msOfDuration(DEFAULTS.serveWork)),
    host: options.host ?? DEFAULTS.serveHost,
    port: nonNegative('port', options.port ?? DEFAULTS.servePort),
    slowAnswerMs: nonNegative('slowAnswerMs', options.slowAnswerMs ?? 1500),
    maxOperations: nonNegative('maxOperations', options.maxOperations ?? DEFAULTS.referenceMaxOperations),
    maxOperationDurationMs: nonNegative('maxOperationDurationMs', options.maxOperationDurationMs ?? msOfDuration(DEFAULTS.maxOperationDuration)),
    storeFile: options.storeFile,
    restartPauseMs: nonNegative('restartPauseMs', options.restartPauseMs ?? 100),
  };
}

function nonNegative(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a finite number of at least 0, got ${value}`);
  return value;
}
