import type { FaultName } from './faults.js';
import { FAULTS, isFaultName } from './faults.js';
import { REFERENCE_MODES, type ReferenceMode } from './mode.js';

export interface ReferenceOptions {
  /** Default 'mixed'. */
  mode?: ReferenceMode;
  /** How long the work behind a 202 takes, ms. Default 2000. */
  workMs?: number;
  /** A name from FAULTS; undefined runs the correct provisioner. */
  fault?: string;
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** How long the 'slow-answers' fault holds each answer, ms. Default 1500. */
  slowAnswerMs?: number;
  /** Most operations whose work runs at one time; when full, calls are answered at once with 200. Default 100. */
  maxOperations?: number;
  /** How long a finished operation stays readable after its work ended, ms. Default 10 minutes. */
  retentionMs?: number;
}

export interface ResolvedOptions {
  mode: ReferenceMode;
  workMs: number;
  fault: FaultName | undefined;
  host: string;
  port: number;
  slowAnswerMs: number;
  maxOperations: number;
  retentionMs: number;
}

/** Fills in defaults and rejects values that would make the reference misbehave in ways no fault asked for. */
export function resolveOptions(options: ReferenceOptions): ResolvedOptions {
  const fault = options.fault;
  if (fault !== undefined && !isFaultName(fault)) {
    throw new Error(`unknown fault "${fault}"; known faults: ${FAULTS.map((f) => f.name).join(', ')}`);
  }
  const mode = options.mode ?? 'mixed';
  if (!REFERENCE_MODES.includes(mode)) {
    throw new Error(`unknown mode "${String(mode)}"; known modes: ${REFERENCE_MODES.join(', ')}`);
  }
  return {
    mode,
    fault,
    workMs: nonNegative('workMs', options.workMs ?? 2000),
    host: options.host ?? '127.0.0.1',
    port: nonNegative('port', options.port ?? 0),
    slowAnswerMs: nonNegative('slowAnswerMs', options.slowAnswerMs ?? 1500),
    maxOperations: nonNegative('maxOperations', options.maxOperations ?? 100),
    retentionMs: nonNegative('retentionMs', options.retentionMs ?? 10 * 60 * 1000),
  };
}

function nonNegative(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a finite number of at least 0, got ${value}`);
  return value;
}
