import type { JudgeContext } from '../core/judge-context.js';
import type { OperationConclusion } from '../core/operation-conclusion.js';
import type { PropertyResult } from '../core/property-result.js';
import { propertyTimeLimitInWords } from '../core/property-time-limit.js';
import type { Millis } from '../core/time.js';
import { judgeRules, type RuleSelection } from '../rules/index.js';
import type { RuleResult } from '../rules/types.js';
import type { KitError } from '../errors.js';
import type { Transcript } from '../transcript/transcript.js';
import { conclusionsFor, waysCertified } from './conclusions.js';
import type { RunOutcome, RunSettings } from './outcome.js';
import { decideVerdict } from './verdict.js';
import { buildOutcome } from './build-outcome.js';
import { applyBaseline } from './baseline.js';
import type { Waiver } from '../config/baseline.js';
import { budgetNote, budgetOutcome, type BudgetFacts } from './budget-outcome.js';

/** What a run (or a transcript judged again) hands over to be judged and reported. */
export interface FinishedRun {
  url: string;
  startedAt: Millis;
  finishedAt: Millis;
  transcript: Transcript;
  context: JudgeContext;
  selection: RuleSelection;
  settings: RunSettings;
  /** The run was stopped before its end. */
  interrupted: boolean;
  /** The kit's own setup failed during the run (a restart that did not work): the run proves nothing either way. */
  kitError?: KitError;
  /** Known failures the team accepts for now: they are reported `waived`, never `pass`. */
  baseline?: readonly Waiver[];
  /** Sentences about how the run went, said before what the judgement concludes. */
  notes: string[];
  operations: OperationConclusion[];
  properties: PropertyResult[];
  /** The run's --time-limit, when it had one. */
  budget?: BudgetFacts;
}

/** Judges a finished run and assembles its outcome: the one place `run` and `verify` reach a verdict. */
export function judgeRun(run: FinishedRun): RunOutcome {
  const judged = judgeRules(run.transcript, run.context, run.selection);
  const answered = run.transcript.exchanges.some((exchange) => exchange.response !== undefined);
  const waived = applyBaseline(answered ? judged : judged.map(unjudged), run.baseline ?? [], run.startedAt);
  const rules = waived.rules;
  const budget = run.budget && budgetOutcome(run.budget, rules, run.properties);
  const budgetSentence = budget && budgetNote(budget);
  const certify = run.settings.profile === 'certify';
  const decided = run.kitError ? run.kitError.verdict : decideVerdict(rules, run.transcript, run.interrupted, certify, budget?.exhausted ?? false);
  // A certification promises its cases: a property that held over fewer than it was asked for leaves it incomplete.
  const short = shortProperties(run.properties);
  const verdict = certify && decided === 'pass' && short.length > 0 ? 'incomplete' : decided;
  return buildOutcome({
    target: { url: run.url },
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    verdict,
    rules,
    conclusions: [
      ...(run.kitError ? [`kit error ${run.kitError.code}: ${run.kitError.message}`] : []),
      ...rules.filter((rule) => rule.status === 'error').map((rule) => rule.message),
      ...run.notes,
      ...(budgetSentence ? [budgetSentence] : []),
      ...waived.notes,
      ...(verdict === 'incomplete' ? [incompleteConclusion(rules, certify, budget?.limit.text, short, budgetSentence !== undefined)] : []),
      // A certificate says which ways of answering it covers: a provisioner may choose 200 or 202 for each call.
      ...(certify && (verdict === 'pass' || verdict === 'incomplete') ? [waysCertified(run.transcript)] : []),
      ...conclusionsFor(run.transcript, run.context, verdict, run.url),
    ],
    operations: run.operations,
    properties: run.properties,
    settings: run.settings,
    ...(budget && { budget }),
    context: run.context,
    transcript: run.transcript,
  });
}

/**
 * A rule of a run whose target never answered: a transport error is all any call got, so there was no answer
 * to judge, and no rule failed or passed.
 */
function unjudged(rule: RuleResult): RuleResult {
  if (rule.status === 'skip' || rule.status === 'error') return rule;
  const message = 'the provisioner never answered: there was no answer to judge';
  return { id: rule.id, level: rule.level, title: rule.title, sentence: rule.sentence, status: 'not-exercised', message, evidence: [] };
}

/** Properties that passed over fewer generated cases than they were asked for: a limit stopped them. */
export function shortProperties(properties: readonly PropertyResult[]): PropertyResult[] {
  return properties.filter((property) => property.status === 'passed' && property.casesAsked !== undefined && property.numRuns - (property.shrinkRuns ?? 0) < property.casesAsked);
}

/**
 * What an incomplete run lacks: the rules no situation exercised, each with why, the properties cut short, and
 * what cut the run short. When the budget's sentence has already named the rules and properties a spent time
 * limit left without cases (`budgetSaid`), it says what that means without naming them all again.
 */
function incompleteConclusion(rules: readonly RuleResult[], certify: boolean, timeLimit: string | undefined, short: readonly PropertyResult[], budgetSaid: boolean): string {
  const missing = rules.filter((rule) => rule.status === 'not-exercised').map((rule) => `${rule.id} (${rule.message})`);
  if (timeLimit !== undefined && budgetSaid) {
    const unknown = missing.length === 0 ? '' : `, so nothing is known about the ${missing.length === 1 ? 'rule' : `${missing.length} rules`} that got no case (each says why in the list of rules)`;
    return `the run is incomplete: its time limit ${timeLimit} was spent before it ended (raise --time-limit)${unknown}`;
  }
  const lacking = missing.length === 0 ? '' : `: ${missing.length} ${missing.length === 1 ? 'rule was' : 'rules were'} not exercised, so nothing is ${certify ? 'certified' : 'known'} about ${missing.length === 1 ? 'it' : 'them'}: ${missing.join('; ')}`;
  const cut = short.map((property) => `${property.name} judged ${property.numRuns - (property.shrinkRuns ?? 0)} of ${property.casesAsked ?? 0} cases${property.timeLimit ? ` within its time limit ${propertyTimeLimitInWords(property.timeLimit)}` : ''}`);
  const properties = cut.length === 0 ? '' : `${lacking === '' ? ':' : ';'} ${cut.length === 1 ? 'a property was' : 'properties were'} cut short by a time limit: ${cut.join('; ')}`;
  if (timeLimit !== undefined) return `the run is incomplete: its time limit ${timeLimit} was spent before it ended (raise --time-limit)${lacking}${properties}`;
  return `the certification is incomplete${lacking}${properties}`;
}
