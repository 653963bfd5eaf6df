/** Judges of the rules about reads of GET /operations/{id}, by family. */
export {
  operationBody,
  operationInProgressDescription,
  operationInProgressResultsEmpty,
  operationStatus,
  operationTransientErrors,
} from './read-answers.js';
export {
  operationFinalRetained,
  operationFinalStable,
  operationNoInProgressAfterFinal,
  operationNotLost,
  operationWithinMaxDuration,
} from './read-lifecycle.js';
export { operation404Identifiable, operationMalformedId, operationUnknown404 } from './read-probes.js';
