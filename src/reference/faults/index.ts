import type { Fault } from '../fault.js';
import alreadyRunning from './already-running.js';
import badResultOutcome from './bad-result-outcome.js';
import batchNewOutputs from './batch-new-outputs.js';
import driftingPlan from './drifting-plan.js';
import emptyProgressNote from './empty-progress-note.js';
import extraAcceptedFields from './extra-accepted-fields.js';
import finalChanges from './final-changes.js';
import flakyReads from './flaky-reads.js';
import forgetAfterFinal from './forget-after-final.js';
import freshSecretOutputs from './fresh-secret-outputs.js';
import full429 from './full-429.js';
import full503 from './full-503.js';
import inProgressAfterFinal from './in-progress-after-final.js';
import inProgressOnPost from './in-progress-on-post.js';
import inconsistentOutcome from './inconsistent-outcome.js';
import lateRegistration from './late-registration.js';
import longIdResultLost from './long-id-result-lost.js';
import lostOnRestart from './lost-on-restart.js';
import malformedId500 from './malformed-id-500.js';
import missingResult from './missing-result.js';
import nestedJson500 from './nested-json-500.js';
import neverFinishes from './never-finishes.js';
import nonUuidOperationId from './non-uuid-operation-id.js';
import numericOperationId from './numeric-operation-id.js';
import partialResults from './partial-results.js';
import plain404 from './plain-404.js';
import punctuationEnvironment500 from './punctuation-environment-500.js';
import missingProperties500 from './missing-properties-500.js';
import racingReads from './racing-reads.js';
import readStatus202 from './read-status-202.js';
import readTextPlain from './read-text-plain.js';
import removedPlanDrift from './removed-plan-drift.js';
import removedResultRenamed from './removed-result-renamed.js';
import repeatedOperationId from './repeated-operation-id.js';
import restoredNeverEnd from './restored-never-end.js';
import slowAnswers from './slow-answers.js';
import staleAfterFinal from './stale-after-final.js';
import status409OnApply from './status-409-on-apply.js';
import status409OnRepeat from './status-409-on-repeat.js';
import textPlainAnswers from './text-plain-answers.js';
import timeOrderedOperationId from './time-ordered-operation-id.js';
import trailingGarbageAccepted from './trailing-garbage-accepted.js';
import unknown200 from './unknown-200.js';
import unknown500 from './unknown-500.js';
import updatedNewOutputs from './updated-new-outputs.js';
import upperCaseOutcome from './upper-case-outcome.js';

/** Every fault, in the order listings show them: answers, final answers, reads, generated input, repeats, load. */
const LIST = [
  status409OnApply,
  textPlainAnswers,
  slowAnswers,
  numericOperationId,
  extraAcceptedFields,
  nonUuidOperationId,
  repeatedOperationId,
  timeOrderedOperationId,
  inProgressOnPost,
  missingResult,
  badResultOutcome,
  inconsistentOutcome,
  readStatus202,
  flakyReads,
  readTextPlain,
  upperCaseOutcome,
  partialResults,
  emptyProgressNote,
  inProgressAfterFinal,
  staleAfterFinal,
  finalChanges,
  lateRegistration,
  neverFinishes,
  unknown200,
  unknown500,
  forgetAfterFinal,
  plain404,
  malformedId500,
  longIdResultLost,
  removedResultRenamed,
  punctuationEnvironment500,
  missingProperties500,
  nestedJson500,
  trailingGarbageAccepted,
  racingReads,
  freshSecretOutputs,
  updatedNewOutputs,
  batchNewOutputs,
  status409OnRepeat,
  alreadyRunning,
  driftingPlan,
  removedPlanDrift,
  full503,
  full429,
  lostOnRestart,
  restoredNeverEnd,
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
