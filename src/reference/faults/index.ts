import type { Fault } from '../fault.js';
import * as answers from './answers.js';
import * as accepted from './accepted.js';
import * as final from './final.js';
import * as operationAnswers from './operation-answers.js';
import * as operationFinal from './operation-final.js';
import * as operationLifecycle from './operation-lifecycle.js';
import * as operationProbes from './operation-probes.js';
import * as repeats from './repeats.js';
import * as capacity from './capacity.js';
import * as durability from './durability.js';
import * as input from './input.js';

/**
 * Every fault, in the order listings show them: each rule family's faults (its module here, named as the
 * family's module of `src/rules/catalog/`), the families in the rulebook's order.
 */
const LIST = [
  ...answers.FAULTS,
  ...accepted.FAULTS,
  ...final.FAULTS,
  ...operationAnswers.FAULTS,
  ...operationFinal.FAULTS,
  ...operationLifecycle.FAULTS,
  ...operationProbes.FAULTS,
  ...repeats.FAULTS,
  ...capacity.FAULTS,
  ...durability.FAULTS,
  ...input.FAULTS,
] as const;

export type FaultName = (typeof LIST)[number]['name'];

export const FAULTS: readonly Fault[] = LIST;

export function isFaultName(name: string): name is FaultName {
  return LIST.some((fault) => fault.name === name);
}

/** The fault of that name; the caller has checked the name. */
export function faultNamed(name: FaultName): Fault {
  return LIST.find((fault) => fault.name === name)!;
}
