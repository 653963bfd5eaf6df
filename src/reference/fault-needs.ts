import type { Fault } from './fault.js';
import type { ReferenceMode } from './mode.js';

/** One `run` flag with the value a fault needs it to have. */
export interface NeededFlag {
  flag: string;
  value: string;
}

/**
 * The `run` flags a fault needs, its mode first: the first of its modes unless `mode` names another one. The
 * command line applies them to `run --reference --reference-fault` and the end-to-end table runs through
 * that, so what a fault needs is turned into flags here only. A restart needs no flag: the kit restarts its
 * in-process reference itself.
 */
export function runFlagsNeeded(fault: Fault, mode: ReferenceMode = fault.needs.modes[0]): NeededFlag[] {
  const { flags = [], property } = fault.needs;
  const needed: NeededFlag[] = [{ flag: '--reference-mode', value: mode }];
  if (property) needed.push({ flag: '--property', value: property.name }, { flag: '--seed', value: String(property.seed) });
  for (let at = 0; at < flags.length; at += 2) needed.push({ flag: flags[at]!, value: flags[at + 1]! });
  return needed;
}

/** The `serve` flag of each `run` flag that sets up the reference itself. */
const SERVE_FLAG_OF: Readonly<Record<string, string>> = {
  '--reference-mode': '--mode',
  '--reference-work': '--work',
  '--reference-max-operations': '--max-operations',
  '--max-operation-duration': '--max-operation-duration',
};

/** The longest wait is both the server's (how long it keeps operations) and the client's (how long it waits). */
const ALSO_THE_CLIENTS = new Set(['--max-operation-duration']);

/** A fault's needs split between `serve --fault` (under serve's flag names) and the `run --url` that goes with it. */
export function serveAndRunFlagsNeeded(fault: Fault): { serve: NeededFlag[]; run: NeededFlag[] } {
  const needed = runFlagsNeeded(fault);
  return {
    serve: needed.flatMap(({ flag, value }) => (SERVE_FLAG_OF[flag] === undefined ? [] : [{ flag: SERVE_FLAG_OF[flag], value }])),
    run: needed.filter(({ flag }) => SERVE_FLAG_OF[flag] === undefined || ALSO_THE_CLIENTS.has(flag)),
  };
}

/** Flags as a user types them: `--burst 20 --seed 1`. */
export function flagsInWords(flags: readonly NeededFlag[]): string {
  return flags.map(({ flag, value }) => `${flag} ${value}`).join(' ');
}
