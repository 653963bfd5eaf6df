import { brokenStatus, RULES } from '../rules/index.js';
import type { Evidence, Rule, RuleResult, RuleStatus } from '../rules/types.js';
import { Transcript } from '../transcript/transcript.js';
import type { RuleCount } from '../core/observation.js';
import type { ChangeSetInfo } from '../core/judge-context.js';
import { neverChosenAmong, whatNeverChosenLacks, type AnswerWays } from '../rules/support/answer-ways.js';

/** Why a rule that real traffic never exercised is not judged. */
export const NEVER_HAD = 'the observed traffic never had this situation';

/** Failed cases whose evidence a rule keeps: enough to show and repeat the fault, few enough to bound memory. */
export const CASES_KEPT = 3;
/** Pieces of evidence kept of each failed case. */
const EVIDENCE_PER_CASE = 5;
/** The statuses of a rule that did not hold (waived ones included: they did not hold either). */
const BROKEN = new Set<RuleStatus>(['fail', 'warn', 'advice', 'waived']);

/** What one judgement of a rule adds to its counts: a pass held, a status that did not hold broke it, the rest exercised nothing. */
export function countOf(status: RuleStatus): RuleCount {
  if (status === 'pass') return { exercised: 1, held: 1, broken: 0 };
  return BROKEN.has(status) ? { exercised: 1, held: 0, broken: 1 } : { exercised: 0, held: 0, broken: 0 };
}

interface Entry extends RuleCount {
  rule: Rule;
  skipped: boolean;
  /** How many faults the failed cases counted in all. */
  faults: number;
  firstBroken?: string;
  lastHeld?: string;
  lastNotExercised?: string;
  /** Situations the rule found not applicable: the provisioner answered them the other way. */
  notApplicable: number;
  lastNotApplicable?: string;
  error?: string;
  evidence: Evidence[];
  casesKept: number;
}

/**
 * Adds up the judgements of many small transcripts (one operation each) into one result per rule: how often
 * it was exercised and held, and for failures the evidence of the first few cases, whose exchanges are
 * copied into one small evidence transcript. Everything else of a judged slice may then be dropped.
 */
export class RuleTally {
  /** The exchanges the kept evidence shows, each once, under the number the observation gave it. */
  readonly evidence = new Transcript();
  /** The change sets the kept cases were sent with: what judging the evidence again needs to match results. */
  private readonly changeSets = new Map<string, ChangeSetInfo>();
  private readonly entries = new Map<string, Entry>();
  /** The seqs of the exchanges the evidence holds: an exchange several cases show is kept once. */
  private readonly kept = new Set<number>();

  constructor(private readonly strict: boolean) {
    for (const rule of RULES) {
      this.entries.set(rule.id, { rule, skipped: false, exercised: 0, held: 0, broken: 0, faults: 0, notApplicable: 0, evidence: [], casesKept: 0 });
    }
  }

  /**
   * Counts the results of one judged slice; `slice` is the transcript they were judged on (its seqs are theirs).
   * `submitted`: the slice holds a plan or apply, so why a rule was not exercised there is the reason worth telling.
   */
  add(results: readonly RuleResult[], slice: Transcript, submitted = true, changeSet?: ChangeSetInfo): void {
    const copy = (seq: number): number | undefined => {
      if (this.kept.has(seq)) return seq;
      const exchange = slice.bySeq(seq);
      if (!exchange) return undefined;
      this.kept.add(seq);
      return this.evidence.append(exchange).seq;
    };
    // A case kept is kept whole (every exchange and event of the slice, and its change set): judged again
    // offline, the evidence then breaks the same rules.
    const keeps = results.some((result) => BROKEN.has(result.status) && (this.entries.get(result.id)?.casesKept ?? CASES_KEPT) < CASES_KEPT);
    if (keeps) {
      for (const exchange of slice.exchanges) copy(exchange.seq);
      for (const event of slice.events) {
        if (event.type !== 'poll-ended') this.evidence.note(event);
        else {
          const acceptedSeq = copy(event.acceptedSeq);
          if (acceptedSeq !== undefined) this.evidence.note({ ...event, acceptedSeq });
        }
      }
      if (changeSet) this.changeSets.set(changeSet.name, changeSet);
    }
    for (const result of results) {
      const entry = this.entries.get(result.id);
      if (!entry) continue;
      this.count(entry, result, copy, submitted);
    }
  }

  /** The change sets of the kept evidence. */
  evidenceChangeSets(): ChangeSetInfo[] {
    return [...this.changeSets.values()];
  }

  private count(entry: Entry, result: RuleResult, copy: (seq: number) => number | undefined, submitted: boolean): void {
    const status: RuleStatus = result.status;
    switch (status) {
      case 'skip':
        entry.skipped = true;
        return;
      case 'error':
        entry.error ??= result.message;
        return;
      case 'pass':
        entry.exercised += 1;
        entry.held += 1;
        entry.lastHeld = result.message;
        return;
      case 'fail':
      case 'warn':
      case 'advice':
      case 'waived':
        entry.exercised += 1;
        entry.broken += 1;
        entry.faults += result.count ?? result.evidence.length;
        entry.firstBroken ??= result.message;
        if (entry.casesKept < CASES_KEPT) {
          entry.casesKept += 1;
          for (const item of result.evidence.slice(0, EVIDENCE_PER_CASE)) {
            const exchanges = item.exchanges.flatMap((seq) => {
              const kept = copy(seq);
              return kept === undefined ? [] : [kept];
            });
            entry.evidence.push({ note: item.note, exchanges });
          }
        }
        return;
      case 'not-applicable':
        entry.notApplicable += 1;
        entry.lastNotApplicable = result.message;
        return;
      default:
        // not-exercised, and any status the rulebook may add
        if (submitted || entry.lastNotExercised === undefined) entry.lastNotExercised = result.message;
    }
  }

  /** How often each rule was exercised, held and broken, by id. */
  counts(): Record<string, RuleCount> {
    const counts: Record<string, RuleCount> = {};
    for (const [id, entry] of this.entries) counts[id] = { exercised: entry.exercised, held: entry.held, broken: entry.broken };
    return counts;
  }

  /**
   * One result per rule, in the rulebook's order, from everything counted so far. `ways`: how every plan and
   * apply call of the observation was answered, for the rules the calls judged one by one found not applicable.
   */
  results(ways: AnswerWays): RuleResult[] {
    return [...this.entries.values()].map((entry) => this.resultOf(entry, ways));
  }

  private resultOf(entry: Entry, ways: AnswerWays): RuleResult {
    const { rule } = entry;
    const base = { id: rule.id, level: rule.level, title: rule.title, sentence: rule.sentence };
    if (entry.skipped) return { ...base, status: 'skip', message: 'deselected for this run', evidence: [] };
    if (entry.error !== undefined) return { ...base, status: 'error', message: entry.error, evidence: [] };
    if (entry.broken > 0) {
      const status = brokenStatus(rule.level, this.strict);
      const message = `${entry.broken} of ${situations(entry.exercised)} observed broke it; the first: ${entry.firstBroken!}`;
      return { ...base, status, message, evidence: [...entry.evidence], count: entry.faults };
    }
    if (entry.held > 0) {
      return { ...base, status: 'pass', message: `held in all ${situations(entry.exercised)} observed; the last: ${entry.lastHeld!}`, evidence: [] };
    }
    const notApplicable = entry.notApplicable > 0 ? notApplicableOver(entry, ways) : undefined;
    if (notApplicable !== undefined) return { ...base, status: 'not-applicable', message: notApplicable, evidence: [] };
    const why = entry.lastNotExercised === undefined ? NEVER_HAD : `${NEVER_HAD} (${entry.lastNotExercised})`;
    return { ...base, status: 'not-exercised', message: why, evidence: [] };
  }
}

/**
 * Why a rule some calls found not applicable is so over the whole observation, or undefined when it is not:
 * each call judged alone chose one way, and a rule about the other way is not applicable only when no call of
 * the observation chose that way (one provisioner answering some calls at once and accepting others chose both).
 */
function notApplicableOver(entry: Entry, ways: AnswerWays): string | undefined {
  // The calls that found the rule not applicable chose one way; the rule is about the other.
  const way = ways.atOnce > 0 ? 202 : 200;
  const reason = neverChosenAmong(ways, way, whatNeverChosenLacks(entry.lastNotApplicable!));
  return reason === undefined ? undefined : `the observed provisioner never answered the way this rule is about: ${reason}`;
}

function situations(count: number): string {
  return count === 1 ? '1 situation' : `${count} situations`;
}
