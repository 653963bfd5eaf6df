import { parseMaxOperationDuration } from '../core/duration.js';
import { UsageError } from '../errors.js';
import { isFaultName, type FaultName, type ReferenceMode } from '../reference/index.js';
import { DEFAULTS } from './defaults.js';
import { durationField, portField, wholeNumberField } from './fields.js';
import { applyServeFaultNeeds, type ServeSettings } from './serve-fault-needs.js';

/** The options of `serve`, as its flags give them: what a fault may need is left undefined when not given. */
export interface ServeOptions {
  /** A number from a library caller, the flag's text from the command line. */
  port?: number | string;
  host?: string;
  mode?: ReferenceMode;
  work?: string;
  fault?: string;
  maxOperations?: number | string;
  maxOperationDuration?: string;
  store?: string;
}

/** Everything `serve` is told, decided once: how the reference provisioner is served. */
export interface ServeConfig {
  host: string;
  port: number;
  mode: ReferenceMode;
  workMs: number;
  fault?: FaultName;
  maxOperations: number;
  maxOperationDurationMs: number;
  storeFile?: string;
  /** With a fault: what of its needs was applied, and what `run --url` needs for the rest. */
  faultNeedsLine?: string;
}

/** Resolves serve's flags, a fault's needs filled in and the defaults under them; every problem names its flag. */
export function resolveServeConfig(options: ServeOptions): ServeConfig {
  const port = portField('--port', options.port ?? DEFAULTS.servePort);
  const { fault } = options;
  if (fault !== undefined && !isFaultName(fault)) throw new UsageError('--fault', `unknown fault "${fault}" (see --list-faults)`);
  const given: ServeSettings = {
    ...(options.mode !== undefined && { mode: options.mode }),
    ...(options.work !== undefined && { work: options.work }),
    ...(options.maxOperations !== undefined && { maxOperations: wholeNumberField('--max-operations', options.maxOperations, 0, Number.MAX_SAFE_INTEGER, 'a whole number of at least 0') }),
    ...(options.maxOperationDuration !== undefined && { maxOperationDuration: options.maxOperationDuration }),
  };
  const needs = fault === undefined ? undefined : applyServeFaultNeeds(fault, given);
  const settings = needs?.settings ?? given;
  const workMs = durationField('--work', settings.work ?? DEFAULTS.serveWork).ms;
  const maxOperations = settings.maxOperations ?? DEFAULTS.referenceMaxOperations;
  const longestWait = parseMaxOperationDuration(settings.maxOperationDuration ?? DEFAULTS.maxOperationDuration);
  if (!longestWait.ok) throw new UsageError('--max-operation-duration', longestWait.error);
  return {
    host: options.host ?? DEFAULTS.serveHost,
    port,
    mode: settings.mode ?? DEFAULTS.referenceMode,
    workMs,
    ...(fault !== undefined && { fault }),
    maxOperations,
    maxOperationDurationMs: longestWait.ms,
    ...(options.store !== undefined && { storeFile: options.store }),
    ...(needs !== undefined && { faultNeedsLine: needs.line }),
  };
}
