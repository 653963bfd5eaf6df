import type { ChangeKey, JudgeContext } from '../../core/judge-context.js';
import { plural } from '../../core/text.js';
import { finalAnswerProblems, resultProblems } from '../../shapes/index.js';
import type { Exchange } from '../../transcript/exchange.js';
import type { Transcript } from '../../transcript/transcript.js';
import { bodyObject, finalAnswers, isObject, outcomeOf, submissions } from '../../transcript/views.js';
import { neverAnswered } from '../support/answered-by.js';
import { noAnswerThatWay } from '../support/answer-ways.js';
import { broken, evidence, held, notExercised, requestLabel } from '../support/judgement.js';
import type { Evidence, Rule } from '../types.js';

/** Rules about final answers, whether a 200 answer to a POST or the final body of a read. */

const NO_FINAL_RESULTS = 'no final answer with a results array was received';

/** A final answer and its results array. */
interface FinalWithResults {
  exchange: Exchange;
  results: unknown[];
}

function finalsWithResults(transcript: Transcript): FinalWithResults[] {
  return finalAnswers(transcript).flatMap((exchange) => {
    // Stryker disable next-line OptionalChaining: a final answer's body is an object that says succeeded or failed
    const results = bodyObject(exchange)?.results;
    return Array.isArray(results) ? [{ exchange, results }] : [];
  });
}

/** `GET /operations/… (failed)`: names a final answer in notes. */
function finalLabel(exchange: Exchange): string {
  return `${requestLabel(exchange)} (seq ${exchange.seq}, ${outcomeOf(exchange)})`;
}

function pairLabel(id: string, environment: string): string {
  return `${JSON.stringify(id)} in ${JSON.stringify(environment)}`;
}

/** `result 2 (shop-db)`: names a result by index and, when it has one, its id. */
function resultLabel(result: unknown, index: number): string {
  const id = isObject(result) ? result.id : undefined;
  return typeof id === 'string' ? `result ${index} (${id})` : `result ${index}`;
}

export const finalBody: Rule = {
  id: 'final.body',
  level: 'MUST',
  section: 'final',
  view: 'without-restart',
  timing: false,
  situations: ['call'],
  judgedInCases: ['generated-change-set', 'model-based'],
  judgedAcrossTraffic: false,
  title: 'A 200 answer is a final answer',
  sentence: 'A 200 answer to plan or apply has outcome succeeded or failed (never in_progress), a string description and a results array.',
  judge(transcript) {
    const twoHundreds = submissions(transcript).filter((e) => e.response?.status === 200);
    const judged = twoHundreds.flatMap((exchange) => {
      const body = bodyObject(exchange);
      return body ? [{ exchange, body }] : [];
    });
    if (twoHundreds.length === 0) {
      return noAnswerThatWay(transcript, 200, 'no 200 answer to judge', neverAnswered(transcript, 200, 'the provisioner never answered 200 to plan or apply'));
    }
    if (judged.length === 0) return notExercised('no 200 answer to plan or apply had a JSON object body (answer.json reports those)');
    const notes: Evidence[] = [];
    for (const { exchange, body } of judged) {
      const problems = finalAnswerProblems(body);
      if (problems.length > 0) notes.push(evidence(`${requestLabel(exchange)} answered 200: ${problems.join('; ')}`, exchange));
    }
    if (notes.length === 0) return held(`${plural(judged.length, 'answer')} with status 200 to plan and apply, each with a final outcome, a description and results`);
    return broken(`${notes.length} of ${plural(judged.length, 'answer')} with status 200 to plan and apply lack the final answer shape`, notes);
  },
};

/** The changes of the answer's change set, or why they are unknown. */
function changesOf(exchange: Exchange, context: JudgeContext): { changes: ChangeKey[] } | { reason: string } {
  if (exchange.changeSet === undefined) return { reason: `seq ${exchange.seq} names no change set` };
  const changeSet = context.changeSets.find((c) => c.name === exchange.changeSet);
  if (!changeSet) return { reason: `change set ${exchange.changeSet} is not known to the run` };
  if (!changeSet.changes) {
    return { reason: `the changes of ${changeSet.name} could not be read: ${changeSet.changesError ?? 'no reason given'}` };
  }
  return { changes: changeSet.changes };
}

/** Every way the results miss the changes: missing, extra and doubled pairs, and results with no pair. */
interface PairCount {
  pair: readonly [string, string];
  label: string;
  count: number;
}

function matchProblems(results: unknown[], changes: ChangeKey[]): string[] {
  const problems: string[] = [];
  const expected = new Map<string, PairCount>();
  for (const change of changes) {
    const key = JSON.stringify([change.id, change.environment]);
    const entry = expected.get(key) ?? { pair: [change.id, change.environment], label: pairLabel(change.id, change.environment), count: 0 };
    entry.count++;
    expected.set(key, entry);
  }
  const got = new Map<string, PairCount>();
  results.forEach((result, index) => {
    const id = isObject(result) ? result.id : undefined;
    const environment = isObject(result) ? result.environment : undefined;
    if (typeof id !== 'string' || typeof environment !== 'string') {
      problems.push(`${resultLabel(result, index)} has no string id and environment to match`);
      return;
    }
    const key = JSON.stringify([id, environment]);
    const entry = got.get(key) ?? { pair: [id, environment], label: pairLabel(id, environment), count: 0 };
    entry.count++;
    got.set(key, entry);
  });
  for (const [key, want] of expected) {
    const count = got.get(key)?.count ?? 0;
    if (count === 0) problems.push(`no result for ${want.label}`);
    else if (count > want.count) problems.push(`${want.label} has ${count} results`);
  }
  for (const [key, have] of got) {
    if (!expected.has(key)) problems.push(`extra result ${have.label}${have.count > 1 ? ` (${have.count} times)` : ''}, not a change of the set`);
  }
  const missing = [...expected].flatMap(([key, want]) => (got.has(key) ? [] : [want.pair]));
  const extra = [...got].flatMap(([key, have]) => (expected.has(key) ? [] : [have.pair]));
  return [...problems, ...lookAlikes(missing, extra)];
}

/**
 * A missing pair and an extra one that print alike: the provisioner answered the change under another
 * form of the same text (Unicode normalisation). The labels alone would read as the same name twice.
 */
function lookAlikes(missing: ReadonlyArray<readonly [string, string]>, extra: ReadonlyArray<readonly [string, string]>): string[] {
  const notes: string[] = [];
  for (const sent of missing) {
    for (const answered of extra) {
      if (!sent.every((text, index) => sameNormalised(text, answered[index]!))) continue;
      const shown = sent.flatMap((text, index) => (text === answered[index] ? [] : [`${codePoints(text)} was answered as ${codePoints(answered[index]!)}`]));
      notes.push(`the extra result is the missing one with its text normalised: ${shown.join('; ')}`);
    }
  }
  return notes;
}

function sameNormalised(a: string, b: string): boolean {
  return a.normalize('NFKC') === b.normalize('NFKC');
}

/** `U+2F800`: the code points of a text, for two texts that print alike. */
function codePoints(text: string): string {
  return [...text].map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`).join(' ');
}

export const finalResultsMatchChanges: Rule = {
  id: 'final.results-match-changes',
  level: 'MUST',
  section: 'final',
  view: 'without-restart',
  timing: false,
  situations: ['call', 'read', 'read-after-final'],
  judgedInCases: ['generated-change-set', 'model-based'],
  judgedAcrossTraffic: false,
  title: 'One result per change',
  sentence:
    'A final answer holds exactly one result for each change of the change set, matched by id and environment: none missing, none extra, none twice, failed answers included.',
  judge(transcript, context) {
    const finals = finalsWithResults(transcript);
    if (finals.length === 0) return notExercised(NO_FINAL_RESULTS);
    const skipped = new Set<string>();
    const notes: Evidence[] = [];
    let judged = 0;
    for (const { exchange, results } of finals) {
      const known = changesOf(exchange, context);
      if ('reason' in known) {
        skipped.add(known.reason);
        continue;
      }
      judged++;
      const problems = matchProblems(results, known.changes);
      if (problems.length > 0) {
        notes.push(evidence(`${finalLabel(exchange)} for change set ${exchange.changeSet}: ${problems.join('; ')}`, exchange));
      }
    }
    if (judged === 0) return notExercised(`no final answer could be matched to its changes: ${[...skipped].join('; ')}`);
    const skippedText = skipped.size > 0 ? ` (skipped where ${[...skipped].join('; ')})` : '';
    if (notes.length === 0) return held(`${plural(judged, 'final answer')}, each with one result per change${skippedText}`);
    return broken(`${notes.length} of ${plural(judged, 'final answer')} do not hold exactly one result per change${skippedText}`, notes);
  },
};

export const finalResultShape: Rule = {
  id: 'final.result-shape',
  level: 'MUST',
  section: 'final',
  view: 'without-restart',
  timing: false,
  situations: ['call', 'read', 'read-after-final'],
  judgedInCases: ['generated-change-set', 'model-based'],
  judgedAcrossTraffic: false,
  title: 'Results have the contract shape',
  sentence:
    'Each result has a string id, a string environment, an outcome of succeeded or failed, a string description, and outputs that are an object when present.',
  judge(transcript) {
    const finals = finalsWithResults(transcript);
    if (finals.length === 0) return notExercised(NO_FINAL_RESULTS);
    const total = finals.reduce((sum, f) => sum + f.results.length, 0);
    if (total === 0) return notExercised(`${plural(finals.length, 'final answer')} held no results to check`);
    const notes: Evidence[] = [];
    let offResults = 0;
    for (const { exchange, results } of finals) {
      const off = results.flatMap((result, index) => {
        const problems = resultProblems(result);
        return problems.length > 0 ? [`${resultLabel(result, index)}: ${problems.join(', ')}`] : [];
      });
      offResults += off.length;
      if (off.length > 0) notes.push(evidence(`${finalLabel(exchange)}: ${off.join('; ')}`, exchange));
    }
    const scope = `${plural(total, 'result')} in ${plural(finals.length, 'final answer')}`;
    if (notes.length === 0) return held(`${scope}, all with the contract shape`);
    return broken(`${offResults} of ${scope} are off the contract shape`, notes, offResults);
  },
};

export const finalOutcomeConsistent: Rule = {
  id: 'final.outcome-consistent',
  level: 'SHOULD',
  section: 'final',
  view: 'without-restart',
  timing: false,
  situations: ['call', 'read', 'read-after-final'],
  judgedInCases: ['generated-change-set', 'model-based'],
  judgedAcrossTraffic: false,
  title: 'Overall outcome agrees with the results',
  sentence: 'A final answer that says succeeded holds no failed result; one with a failed result says failed.',
  judge(transcript) {
    const judged = finalsWithResults(transcript).filter(({ results }) =>
      results.some((r) => isObject(r) && (r.outcome === 'succeeded' || r.outcome === 'failed')),
    );
    if (judged.length === 0) return notExercised('no final answer held a result with outcome succeeded or failed');
    const notes: Evidence[] = [];
    for (const { exchange, results } of judged) {
      if (outcomeOf(exchange) !== 'succeeded') continue;
      const failed = results.flatMap((r, index) => (isObject(r) && r.outcome === 'failed' ? [resultLabel(r, index)] : []));
      if (failed.length > 0) {
        notes.push(evidence(`${requestLabel(exchange)} said succeeded, but ${failed.join(', ')} failed`, exchange));
      }
    }
    if (notes.length === 0) return held(`${plural(judged.length, 'final answer')}, each agreeing with its results`);
    return broken(`${notes.length} of ${plural(judged.length, 'final answer')} said succeeded with a failed result`, notes);
  },
};

/** The rules of this family, in the order reports show them: the rulebook lists the families in turn. */
export const RULES: readonly Rule[] = [finalBody, finalResultsMatchChanges, finalResultShape, finalOutcomeConsistent];
