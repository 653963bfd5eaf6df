import { Transcript } from '../transcript/transcript.js';
import { CATALOG } from './catalog.js';
import type { Judgement, JudgeContext, Rule, RuleResult, RuleStatus } from './types.js';
import * as answers from './judges/answers.js';
import * as final from './judges/final.js';
import * as input from './judges/input.js';
import * as reads from './judges/reads.js';
import * as registration from './judges/registration.js';
import { applyIdempotent, applyRepeatWhileRunning, planRepeatable } from './repeats.js';
import { capacityBurst } from './capacity.js';
import { durabilitySurvivesRestart } from './durability.js';
import { SituationViews } from './situation-views.js';

type Judge = NonNullable<Rule['judge']>;

/** One explicit list: which judge speaks for which rule id. Rules without a judge are not built yet. */
const JUDGES: Readonly<Record<string, Judge>> = {
  'answer.status': answers.answerStatus,
  'answer.json': answers.answerJson,
  'answer.prompt': answers.answerPrompt,
  'accepted.body': answers.acceptedBody,
  'accepted.only-operation-id': answers.acceptedOnlyOperationId,
  'accepted.operation-id-uuid': answers.acceptedOperationIdUuid,
  'accepted.operation-id-unique': answers.acceptedOperationIdUnique,
  'accepted.operation-id-random': answers.acceptedOperationIdRandom,
  'final.body': final.finalBody,
  'final.results-match-changes': final.finalResultsMatchChanges,
  'final.result-shape': final.finalResultShape,
  'final.outcome-consistent': final.finalOutcomeConsistent,
  'operation.status': reads.operationStatus,
  'operation.transient-errors': reads.operationTransientErrors,
  'operation.body': reads.operationBody,
  'operation.in-progress-results-empty': reads.operationInProgressResultsEmpty,
  'operation.in-progress-description': reads.operationInProgressDescription,
  'operation.no-in-progress-after-final': reads.operationNoInProgressAfterFinal,
  'operation.final-stable': reads.operationFinalStable,
  'operation.not-lost': reads.operationNotLost,
  'operation.within-max-duration': reads.operationWithinMaxDuration,
  'operation.unknown-404': reads.operationUnknown404,
  'operation.final-retained': reads.operationFinalRetained,
  'operation.404-identifiable': reads.operation404Identifiable,
  'operation.malformed-id': reads.operationMalformedId,
  'registration.body': registration.registrationBody,
  'registration.max-operation-duration': registration.registrationMaxOperationDuration,
  'input.malformed-json': input.inputMalformedJson,
  'input.invalid-change-set': input.inputInvalidChangeSet,
  ...Object.fromEntries(
    [applyIdempotent, applyRepeatWhileRunning, planRepeatable, capacityBurst, durabilitySurvivesRestart].map((rule) => [rule.id, rule.judge!]),
  ),
};

export const RULES: readonly Rule[] = CATALOG.map((entry) => ({ ...entry, judge: JUDGES[entry.id] }));

export interface RuleSelection {
  /** Judge only these ids (all when absent). */
  only?: readonly string[];
  /** Never judge these ids: they are reported `skip`. */
  skip?: readonly string[];
  /** SHOULD rules that do not hold fail instead of warning. */
  strict?: boolean;
}

/** Judges the transcript by every rule of the catalog, in catalog order. */
export function judgeRules(transcript: Transcript, context: JudgeContext, selection: RuleSelection = {}): RuleResult[] {
  const views = new SituationViews(withoutStoppedExchanges(transcript));
  return RULES.map((rule) => {
    const base = { id: rule.id, level: rule.level, title: rule.title, sentence: rule.sentence };
    const deselected = (selection.only && !selection.only.includes(rule.id)) || selection.skip?.includes(rule.id);
    if (deselected) return { ...base, status: 'skip', message: 'deselected for this run', evidence: [] };
    if (!rule.judge) {
      return { ...base, status: 'not-exercised', message: 'this version of the kit does not drive this situation yet', evidence: [] };
    }
    return { ...base, ...resultOf(rule, safeJudge(rule.judge, views.for(rule.id), context), selection.strict ?? false) };
  });
}

// An exchange the kit cut short when the run was stopped says nothing about the provisioner.
function withoutStoppedExchanges(transcript: Transcript): Transcript {
  if (!transcript.exchanges.some((exchange) => exchange.error?.kind === 'stopped')) return transcript;
  return new Transcript(transcript.exchanges.filter((exchange) => exchange.error?.kind !== 'stopped'), transcript.events);
}

// A judge that throws is a bug in the kit, never a verdict on the provisioner: say so instead of passing.
function safeJudge(judge: Judge, transcript: Transcript, context: JudgeContext): Judgement {
  try {
    return judge(transcript, context);
  } catch (error) {
    return { outcome: 'not-exercised', message: `the kit could not judge this rule (internal error: ${(error as Error).message})` };
  }
}

function resultOf(rule: Rule, judgement: Judgement, strict: boolean): Pick<RuleResult, 'status' | 'message' | 'evidence' | 'count'> {
  if (judgement.outcome === 'held') return { status: 'pass', message: judgement.message, evidence: judgement.evidence ?? [] };
  if (judgement.outcome === 'not-exercised') return { status: 'not-exercised', message: judgement.message, evidence: [] };
  const status: RuleStatus = rule.level === 'MUST' ? 'fail' : rule.level === 'SHOULD' ? (strict ? 'fail' : 'warn') : 'advice';
  return { status, message: judgement.message, evidence: judgement.evidence, count: judgement.count };
}
