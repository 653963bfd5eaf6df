import type { ChangeSetInfo, JudgeContext } from '../../src/core/judge-context.js';
import { judgeRules } from '../../src/rules/index.js';
import type { RuleResult } from '../../src/rules/types.js';
import { isBusyAnswer, KitLoad, SITUATION_SUITES } from '../../src/transcript/situations.js';
import { Transcript } from '../../src/transcript/transcript.js';
import type { CaseVerdict, PropertyContext } from './property.js';

/** The rules a slice of the run broke, and the slice they were judged on. */
export interface CaseJudgement {
  /** Rules that fail or warn, in catalog order; ADVICE never breaks a case (it is no contract). */
  broken: RuleResult[];
  transcript: Transcript;
}

/**
 * The case's own slice of the run: its exchanges (tagged with `caseSuite`, or sent again as a repeat that
 * names the case as its change set) and the poll-ended events of operations one of those exchanges
 * accepted. Seqs stay the run-wide ones, so evidence points into the run-wide transcript.
 */
export function caseTranscript(context: PropertyContext, caseSuite: string): Transcript {
  const whole = context.client.transcript;
  const exchanges = whole.exchanges.filter((e) => e.suite === caseSuite || (e.suite === SITUATION_SUITES.repeatApply && e.changeSet === caseSuite));
  const seqs = new Set(exchanges.map((e) => e.seq));
  const events = whole.events.filter((e) => e.type === 'poll-ended' && seqs.has(e.acceptedSeq));
  return new Transcript(exchanges, events);
}

/**
 * Judges a transcript by the run's own judges, restricted to `ruleIds` (the rules that name the case's kind in
 * `judgedInCases`). The one place a case is judged: a property never decides a rule by any other code than the
 * run-wide judgement does.
 */
export function judgeTranscript(transcript: Transcript, judgeContext: JudgeContext, ruleIds: readonly string[], load?: KitLoad): CaseJudgement {
  const results = judgeRules(transcript, judgeContext, { only: ruleIds }, load);
  return { broken: results.filter(breaksCase), transcript };
}

/** Judges the case's slice of the run, with the case's generated change sets known. */
export function judgeCaseSlice(
  context: PropertyContext,
  caseSuite: string,
  extraChangeSets: readonly ChangeSetInfo[],
  ruleIds: readonly string[],
): CaseJudgement {
  const judgeContext = { ...context.judgeContext, changeSets: [...context.judgeContext.changeSets, ...extraChangeSets] };
  const slice = caseTranscript(context, caseSuite);
  return judgeTranscript(slice, judgeContext, ruleIds, loadMet(slice, context.client.transcript));
}

/**
 * The kit's work the slice's calls met, as the run-wide judgement sees it: a 429 or 503 while the provisioner
 * held other work of the kit is load, judged by capacity.burst, in the case as in the run. Measured only when the
 * slice holds such an answer (else the slice's own will do): the run's transcript is long, and cases are judged
 * after every step.
 */
function loadMet(slice: Transcript, whole: Transcript): KitLoad | undefined {
  return slice.exchanges.some((e) => e.request.method === 'POST' && isBusyAnswer(e)) ? new KitLoad(whole) : undefined;
}

/**
 * Judges one case by the same rules as the whole run, with the case's generated change sets known. A MUST or
 * SHOULD rule that does not hold breaks the case; ADVICE never does (it is no contract).
 */
export function judgeCase(context: PropertyContext, caseSuite: string, extraChangeSets: readonly ChangeSetInfo[], ruleIds: readonly string[]): CaseVerdict {
  return verdictOf(judgeCaseSlice(context, caseSuite, extraChangeSets, ruleIds));
}

/** The verdict of a judgement: one note per broken rule (`noteOf`, by default its first evidence), and the key exchanges. */
export function verdictOf(judgement: CaseJudgement, noteOf: (rule: RuleResult) => string = (rule) => firstNote(rule)): CaseVerdict {
  return {
    broken: judgement.broken.map((r) => r.id),
    exchanges: keyExchanges(judgement.broken, judgement.transcript),
    notes: judgement.broken.map(noteOf),
  };
}

/**
 * The exchanges that show the case: the key exchange of each broken rule's first evidence, then the case's
 * own POSTs, which a person repeats to see it again. Every other piece of evidence is in the rule's report.
 */
function keyExchanges(broken: readonly RuleResult[], transcript: Transcript): number[] {
  if (broken.length === 0) return [];
  const seqs: number[] = [];
  const add = (seq: number | undefined): void => {
    if (seq !== undefined && !seqs.includes(seq)) seqs.push(seq);
  };
  for (const rule of broken) for (const seq of rule.evidence[0]?.exchanges ?? []) add(seq);
  for (const exchange of transcript.exchanges) if (exchange.request.method === 'POST') add(exchange.seq);
  return seqs;
}

/** One note per broken rule: where it was seen when that is known, its first piece of evidence, and how many more there are. */
export function firstNote(rule: RuleResult, where?: string): string {
  const head = where === undefined ? `${rule.id}: ` : `${rule.id}: ${where}: `;
  const first = rule.evidence[0];
  if (!first) return `${head}${rule.message}`;
  const more = rule.evidence.length - 1;
  return `${head}${first.note}${more > 0 ? ` (and ${more} more like it)` : ''}`;
}

function breaksCase(result: RuleResult): boolean {
  return result.status === 'fail' || result.status === 'warn';
}
