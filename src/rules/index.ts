import type { JudgeContext } from '../core/judge-context.js';
import { kitIdentity } from '../core/package.js';
import { messageOf } from '../errors.js';
import { Transcript } from '../transcript/transcript.js';
import type { KitLoad } from '../transcript/situations.js';
import * as accepted from './catalog/accepted.js';
import * as answers from './catalog/answers.js';
import * as capacity from './catalog/capacity.js';
import * as durability from './catalog/durability.js';
import * as final from './catalog/final.js';
import * as input from './catalog/input.js';
import * as operationAnswers from './catalog/operation-answers.js';
import * as operationFinal from './catalog/operation-final.js';
import * as operationLifecycle from './catalog/operation-lifecycle.js';
import * as operationProbes from './catalog/operation-probes.js';
import * as registration from './catalog/registration.js';
import * as repeats from './catalog/repeats.js';
import type { Judgement, Level, PropertyCase, Rule, RuleResult, RuleSituation, RuleStatus } from './types.js';
import { SituationViews } from './support/situation-views.js';

/**
 * The rulebook: every rule of the contract, once, in the order reports list them: each family's own list
 * (`RULES` at the end of its module in `catalog/`), the families in turn.
 */
export const RULES: readonly Rule[] = [
  ...answers.RULES,
  ...accepted.RULES,
  ...final.RULES,
  ...operationAnswers.RULES,
  ...operationFinal.RULES,
  ...operationLifecycle.RULES,
  ...operationProbes.RULES,
  ...registration.RULES,
  ...repeats.RULES,
  ...capacity.RULES,
  ...durability.RULES,
  ...input.RULES,
];

export const RULE_IDS: readonly string[] = RULES.map((rule) => rule.id);

/** The rules only a wait past the operation deadline can break. */
export const DEADLINE_ONLY_RULE_IDS: ReadonlySet<string> = new Set(RULES.filter((rule) => rule.shownByWaitingOutDeadline === true).map((rule) => rule.id));

/** The ids of the rules whose situations include `situation`, in the rulebook's order. */
export function ruleIdsJudging(situation: RuleSituation): string[] {
  return RULES.filter((rule) => rule.situations.includes(situation)).map((rule) => rule.id);
}

/** The rules about the registration document: judged once, and on their own by `check-registration`. */
export function registrationRuleIds(): string[] {
  return ruleIdsJudging('registration');
}

/** The ids of the rules a property case of any of these kinds judges, in the rulebook's order. */
export function ruleIdsJudgedInCases(...cases: readonly PropertyCase[]): string[] {
  return RULES.filter((rule) => rule.judgedInCases.some((kind) => cases.includes(kind))).map((rule) => rule.id);
}

/** The rules observed traffic judges across the whole traffic, not slice by slice. */
export function ruleIdsJudgedAcrossTraffic(): string[] {
  return RULES.filter((rule) => rule.judgedAcrossTraffic).map((rule) => rule.id);
}

/** The run's note when it did not restart the provisioner: which rules (`ids`) that leaves unjudged, and how to judge them. */
export function notRestartedNote(ids: readonly string[] = ruleIdsJudging('restart')): string {
  return `the provisioner was not restarted, so ${ids.join(' and ')} ${ids.length === 1 ? 'was' : 'were'} not judged: ${durability.RESTART_HINT}`;
}

export interface RuleSelection {
  /** Judge only these ids (all when absent). */
  only?: readonly string[];
  /** Never judge these ids: they are reported `skip`. */
  skip?: readonly string[];
  /** SHOULD rules that do not hold fail instead of warning. */
  strict?: boolean;
}

/**
 * Judges the transcript by every rule, in the rulebook's order. `load`: the kit's work the exchanges were in
 * flight with, for a slice of a run that does not hold it all (absent: found in the transcript).
 */
export function judgeRules(transcript: Transcript, context: JudgeContext, selection: RuleSelection = {}, load?: KitLoad): RuleResult[] {
  // Each rule sees the transcript as its situation allows: a restart's refused reads are durability's, not transient errors.
  const views = new SituationViews(withoutStoppedExchanges(transcript), load);
  const notes = new Map<string, string>();
  return RULES.map((rule) => shareNotes(judgeRule(rule, views.for(rule.view), context, selection), notes));
}

/**
 * Gives equal evidence notes one string: a rule broken by every read of a long run has tens of thousands of
 * notes, most of them the same words ("read sent 2.3s after the 202 …"), each otherwise its own string kept
 * until the report is written.
 */
function shareNotes(result: RuleResult, notes: Map<string, string>): RuleResult {
  // Stryker disable BlockStatement,ConditionalExpression: memory only; equal notes read the same whether they share a string or not
  for (const item of result.evidence) {
    const known = notes.get(item.note);
    if (known === undefined) notes.set(item.note, item.note);
    else item.note = known;
  }
  // Stryker restore BlockStatement,ConditionalExpression
  return result;
}

function judgeRule(rule: Rule, transcript: Transcript, context: JudgeContext, selection: RuleSelection): RuleResult {
  const base = { id: rule.id, level: rule.level, title: rule.title, sentence: rule.sentence };
  const deselected = (selection.only && !selection.only.includes(rule.id)) || selection.skip?.includes(rule.id);
  if (deselected) return { ...base, status: 'skip', message: 'deselected for this run', evidence: [] };
  let judgement: Judgement;
  try {
    judgement = rule.judge(transcript, context);
  } catch (error) {
    // A judge that throws is a bug in the kit: the rule is unknown, and the run must not pass or call it not exercised.
    return { ...base, status: 'error', message: judgeFailureMessage(rule, error), evidence: [] };
  }
  return { ...base, ...resultOf(rule, judgement, selection.strict ?? false) };
}

/** The message of the kit error (KIT_INTERNAL) a throwing judge stands for, naming the rule and the kit's version for a bug report. */
function judgeFailureMessage(rule: Rule, error: unknown): string {
  const kit = kitIdentity();
  const where = error instanceof Error ? error.stack?.split('\n').find((line) => line.trim().startsWith('at '))?.trim() : undefined;
  return `${kit.name} ${kit.version} failed while judging ${rule.id}: ${messageOf(error)}${where ? ` (${where})` : ''}; this is a bug in the kit (KIT_INTERNAL), not a verdict on the provisioner`;
}

// An exchange the kit cut short when the run was stopped says nothing about the provisioner.
function withoutStoppedExchanges(transcript: Transcript): Transcript {
  if (!transcript.exchanges.some((exchange) => exchange.error?.kind === 'stopped')) return transcript;
  return new Transcript(transcript.exchanges.filter((exchange) => exchange.error?.kind !== 'stopped'), transcript.events);
}

/** The status of a rule of `level` that broke: a MUST fails; a SHOULD warns, or fails when `strict`; advice is advice. */
export function brokenStatus(level: Level, strict: boolean): RuleStatus {
  if (level === 'MUST') return 'fail';
  if (level === 'SHOULD') return strict ? 'fail' : 'warn';
  return 'advice';
}

function resultOf(rule: Rule, judgement: Judgement, strict: boolean): Pick<RuleResult, 'status' | 'message' | 'evidence' | 'count'> {
  if (judgement.outcome === 'held') return { status: 'pass', message: judgement.message, evidence: judgement.evidence ?? [] };
  if (judgement.outcome === 'not-exercised' || judgement.outcome === 'not-applicable') return { status: judgement.outcome, message: judgement.message, evidence: [] };
  return { status: brokenStatus(rule.level, strict), message: judgement.message, evidence: judgement.evidence, count: judgement.count };
}
