import type { ReferenceMode } from './mode.js';
import type { Seams } from './seams.js';

/** What a run needs to exercise a fault's broken rules. */
export interface FaultNeeds {
  /** The reference modes to run it in; the end-to-end table has one row per mode. */
  modes: readonly [ReferenceMode, ...ReferenceMode[]];
  /** Extra `run` flags, as flag and value pairs, without which the broken rules are not exercised. */
  flags?: readonly string[];
  /** Only this property finds the fault (the scenarios never trigger it), so it alone runs; the seed makes the run repeatable. */
  property?: { name: string; seed: number };
  /**
   * The run restarts the provisioner: `--restart-command` against `serve --store FILE`; the kit restarts an
   * in-process reference itself.
   */
  restart?: boolean;
}

/** A switch that makes the reference break the rules in `breaks`, and the seams through which it does. */
export interface Fault<Name extends string = string> extends Seams {
  name: Name;
  /** Rule ids the fault breaks; the first is the rule it is about, the others break along with it. */
  breaks: readonly [string, ...string[]];
  needs: FaultNeeds;
  /** One line, for listings. */
  summary: string;
}

/** Keeps the fault's name as a literal type, so that the list of faults spells out every name. */
export function defineFault<const Name extends string>(fault: Fault<Name>): Fault<Name> {
  return fault;
}
