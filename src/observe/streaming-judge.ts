import type { ChangeSetInfo, JudgeContext } from '../core/judge-context.js';
import type { OperationConclusion, PollEndReason } from '../core/operation-conclusion.js';
import { formatMs } from '../core/duration.js';
import { brokenStatus, judgeRules, registrationRuleIds, RULES, ruleIdsJudgedAcrossTraffic, ruleIdsJudging, type RuleSelection } from '../rules/index.js';
import type { RuleResult } from '../rules/types.js';
import type { Exchange, Millis, TranscriptEvent } from '../transcript/exchange.js';
import { Transcript } from '../transcript/transcript.js';
import { acceptedOperationId, isFinalAnswer, isTransient, outcomeOf } from '../transcript/views.js';
import { unexpectedAnswer } from '../poller/unexpected-answer.js';
import type { ObservedExchange } from './recorder.js';
import { countOf, RuleTally } from './rule-tally.js';
import type { RuleCount, TrafficSeen } from '../core/observation.js';
import { seenChangeSet, type SeenChangeSet } from './seen-change-set.js';
import type { AnswerWays } from '../rules/support/answer-ways.js';
import { ChangeSetRepeats } from './change-set-repeats.js';
import { idKey } from './id-key.js';
import { RetriedSends } from './retried-sends.js';
import { UnattachedReads } from './unattached-reads.js';

/**
 * Everything the judge holds, as plain data (structured-clone friendly): what a judge on a worker thread sends
 * back, and what an observation's outcome is built from.
 */
export interface JudgeTally {
  results: RuleResult[];
  ruleCounts: Record<string, RuleCount>;
  traffic: TrafficSeen;
  conclusions: OperationConclusion[];
  /** The exchanges and events the kept evidence shows, each numbered by its place in the observation. */
  evidence: { exchanges: Exchange[]; events: TranscriptEvent[] };
  evidenceChangeSets: ChangeSetInfo[];
}

/** What the judge needs besides the traffic: the judging context (no change sets: each POST brings its own). */
export interface StreamingJudgeSettings {
  context: Omit<JudgeContext, 'changeSets'>;
  selection: RuleSelection;
  changesPointer: string;
  /** Hears each change set the first time its bytes are seen (`--record-change-sets`). */
  onChangeSet?: (changeSet: SeenChangeSet) => void;
  /** Hears the results of each slice judged, with the slice, after they were counted (what observe tells as it runs). */
  onJudged?: (results: readonly RuleResult[], slice: Transcript) => void;
}

/** An accepted operation followed while its reads come. */
interface OpenOperation {
  operationId: string;
  /** Plan or apply, by the path it was sent to: kept, as a body that is no change set is retagged as bad input. */
  kind: 'plan' | 'apply';
  post: Exchange;
  changeSet: SeenChangeSet;
  reads: Exchange[];
  deadlineAt: Millis;
}

/** Rules judged once for the whole observation, not per operation: the registration is one document. */
const JUDGED_ONCE: ReadonlySet<string> = new Set(registrationRuleIds());
/** Whether a rule is one of those judged once for the whole observation. */
function isJudgedOnce(id: string): boolean {
  return JUDGED_ONCE.has(id);
}
/** Conclusions kept for the report: the operations that did not end in a final answer, the most recent few. */
const CONCLUSIONS_KEPT = 50;
/** Operations that ended in a final answer, remembered so that a read of theirs after it is judged as one. */
const ENDED_KEPT = 256;
/** The rules a read after an operation's final answer can show something about. */
const AFTER_FINAL_RULES: readonly string[] = ruleIdsJudging('read-after-final');
/** The rules a 202 carrying an operationId seen before breaks: no slice alone shows it. */
const JUDGED_ACROSS_TRAFFIC: ReadonlySet<string> = new Set(ruleIdsJudgedAcrossTraffic());
/** The rules a change set sent again can show something about. */
const REPEAT_RULES: readonly string[] = RULES.filter((rule) => rule.section === 'repeats').map((rule) => rule.id);
/** Distinct change-set hashes remembered, so that each is recorded once; past it the memory starts again. */
const HASHES_KEPT = 100_000;

/**
 * Judges real traffic as it flows, with the kit's own judges: each operation is judged alone once it ends (a
 * final answer, a 404, its deadline), with its POST and reads as a small transcript; a call answered at once
 * is judged alone at once. What held is counted and dropped; what failed keeps a few cases' evidence. The
 * only state that grows with the traffic is the set of operationIds seen (accepted.operation-id-unique).
 */
export class StreamingJudge {
  private readonly tally: RuleTally;
  /** SHOULD rules that do not hold fail instead of warning (`--strict`). */
  private readonly strict: boolean;
  private readonly open = new Map<string, OpenOperation>();
  /** The 202 and first final answer of the latest operations that ended in one, by id. */
  private readonly ended = new Map<string, { post: Exchange; final: Exchange; changeSet: SeenChangeSet }>();
  private readonly repeats = new ChangeSetRepeats((exchanges, events, changeSet) => this.judge(exchanges, events, changeSet, undefined, REPEAT_RULES));
  private readonly idsSeen = new Set<string>();
  private readonly unattachedReads: UnattachedReads;
  private readonly retried: RetriedSends;
  private readonly hashesSeen = new Set<string>();
  private firstAccepted: Exchange | undefined;
  private readonly conclusions: OperationConclusion[] = [];
  private readonly seen: TrafficSeen = {
    exchanges: 0,
    byTag: { plan: 0, apply: 0, poll: 0 },
    otherRequests: 0,
    unattachedReads: 0,
    changeSetTypes: {},
    actions: {},
    distinctChangeSets: 0,
    operations: { accepted: 0, open: 0, ended: { final: 0, lost: 0, unexpected: 0, deadline: 0, aborted: 0 } },
  };
  private lastAt: Millis = 0;
  /** How every plan and apply call was answered: a rule about one way is not applicable only if no call chose it. */
  private readonly ways: AnswerWays = { calls: 0, atOnce: 0, accepted: 0, burst: 0 };

  constructor(private readonly settings: StreamingJudgeSettings) {
    this.strict = settings.selection.strict ?? false;
    this.tally = new RuleTally(this.strict);
    this.unattachedReads = new UnattachedReads(settings.context);
    this.retried = new RetriedSends(settings.context.pollIntervalMs, (exchanges, rules) => this.judge(exchanges, [], undefined, undefined, rules));
  }

  /**
   * Takes one exchange of the traffic, in the order the traffic had them. It keeps its place in the
   * observation as its seq (the numbers of the observation's transcript), or the seq it already has (a
   * transcript judged again), so that evidence names every exchange by one number.
   */
  add(exchange: ObservedExchange | Exchange): void {
    this.seen.exchanges += 1;
    const numbered: Exchange = { ...exchange, seq: 'seq' in exchange ? exchange.seq : this.seen.exchanges };
    this.lastAt = Math.max(this.lastAt, numbered.endedAt);
    if (numbered.tag === 'plan' || numbered.tag === 'apply') {
      this.seen.byTag[numbered.tag] += 1;
      this.submitted(numbered);
    } else if (numbered.tag === 'poll') {
      this.seen.byTag.poll += 1;
      this.read(numbered);
    }
  }

  /** Counts a request that is none of the contract's: it passed, and nothing judges it. */
  other(): void {
    this.seen.otherRequests += 1;
  }

  /** Ends, at their deadline, the operations that have had no final answer by `at`. */
  sweep(at: Millis): void {
    for (const op of [...this.open.values()]) {
      if (op.deadlineAt <= at) this.close(op, 'deadline', op.deadlineAt);
    }
  }

  /**
   * Ends the observation at `at`: operations past their deadline end there; the others are judged on what was
   * seen of them (the traffic stopped before they ended: nothing is said of their end).
   */
  finish(at: Millis = this.lastAt): void {
    this.sweep(at);
    for (const op of [...this.open.values()]) this.close(op, 'aborted', at);
    for (const read of this.unattachedReads.undecidedAtEnd()) this.judgeUnattached(read);
  }

  /** The latest time the traffic showed: the clock of a recording. */
  get latest(): Millis {
    return this.lastAt;
  }

  /** One result per rule from everything judged so far. */
  results(): RuleResult[] {
    const once = judgeRules(new Transcript(this.firstAccepted ? [this.firstAccepted] : []), { ...this.settings.context, changeSets: [] }, this.settings.selection);
    const byId = new Map(once.filter((result) => isJudgedOnce(result.id)).map((result) => [result.id, result]));
    return this.tally.results(this.ways).map((result) => byId.get(result.id) ?? result);
  }

  /** How often each rule was exercised, held and broken. */
  ruleCounts(results: readonly RuleResult[] = this.results()): Record<string, RuleCount> {
    const counts = this.tally.counts();
    for (const result of results) if (isJudgedOnce(result.id)) counts[result.id] = countOf(result.status);
    return counts;
  }

  /** The exchanges the kept evidence shows. */
  get evidence(): Transcript {
    return this.tally.evidence;
  }

  /** The change sets the kept evidence was sent with, for the context it is judged again in. */
  evidenceChangeSets(): ChangeSetInfo[] {
    return this.tally.evidenceChangeSets();
  }

  /** Everything judged so far, as plain data. */
  snapshot(): JudgeTally {
    const results = this.results();
    const evidence = this.tally.evidence;
    return {
      results,
      ruleCounts: this.ruleCounts(results),
      traffic: this.traffic(),
      conclusions: this.operationConclusions(),
      // In the observation's order: cases are kept as their operations end, not as they began.
      evidence: { exchanges: evidence.exchanges.slice().sort((a, b) => a.seq - b.seq), events: evidence.events.slice() },
      evidenceChangeSets: this.evidenceChangeSets(),
    };
  }

  traffic(): TrafficSeen {
    return {
      ...this.seen,
      byTag: { ...this.seen.byTag },
      changeSetTypes: { ...this.seen.changeSetTypes },
      actions: { ...this.seen.actions },
      operations: { ...this.seen.operations, open: this.open.size, ended: { ...this.seen.operations.ended } },
    };
  }

  /** What the control plane would have concluded of the operations that did not end in a final answer (the latest few). */
  operationConclusions(): OperationConclusion[] {
    return [...this.conclusions];
  }

  private submitted(post: Exchange): void {
    const changeSet = seenChangeSet(post.request.body ?? '', this.settings.changesPointer);
    this.countChangeSet(changeSet);
    // A body that is no change set is judged by the bad-input rules, as a run judges its probes: it is no call.
    const named: Exchange = { ...post, changeSet: changeSet.name, ...(changeSet.badInput && { tag: changeSet.badInput }) };
    const call = changeSet.badInput === undefined;
    if (call) this.countWay(named);
    this.retried.sent(named);
    if (!isTransient(named)) this.retried.answered([named], false);
    const id = acceptedOperationId(named);
    if (id === undefined) {
      const answered = { post: named, changeSet, reads: [] };
      const repeatOf = call ? this.repeats.sent(answered) : undefined;
      this.judge([asRepeat(named, repeatOf)], [], changeSet);
      if (call) this.repeats.ended(answered, [], isFinalAnswer(named) ? named : undefined);
      return;
    }
    const key = idKey(id);
    for (const held of this.unattachedReads.given(id)) this.judgeUnattached(held);
    const repeated = this.idsSeen.has(key);
    this.idsSeen.add(key);
    this.seen.operations.accepted += 1;
    this.firstAccepted ??= named;
    if (repeated || this.open.has(id)) {
      // The id names earlier work: its reads cannot be told apart, so the 202 is judged alone, and found repeated.
      this.judge([named], [], changeSet, named);
      return;
    }
    const op: OpenOperation = { operationId: id, kind: post.tag === 'apply' ? 'apply' : 'plan', post: named, changeSet, reads: [], deadlineAt: post.endedAt + this.settings.context.maxOperationDuration.ms };
    this.open.set(id, op);
    if (call) op.post = asRepeat(named, this.repeats.sent(op));
  }

  private read(read: Exchange): void {
    const id = read.operationId;
    // Stryker disable next-line ConditionalExpression: no key is undefined; the test narrows the type
    const op = id === undefined ? undefined : this.open.get(id);
    if (op) {
      this.follow(op, read);
      return;
    }
    if (!isTransient(read)) this.retried.answered([read], false);
    // Stryker disable next-line ConditionalExpression: no key is undefined; the test narrows the type
    const ended = id === undefined ? undefined : this.ended.get(id);
    if (ended) {
      // The control plane read again after the final answer (it lost that answer, say): judged as a read after it.
      const again: Exchange = { ...read, tag: 'read-after-final', changeSet: ended.changeSet.name };
      this.judge([ended.post, ended.final, again], [], ended.changeSet, undefined, AFTER_FINAL_RULES);
      return;
    }
    this.seen.unattachedReads += 1;
    const tagged = this.unattachedReads.tagged(read, (key) => this.idsSeen.has(key));
    if (tagged) this.judgeUnattached(tagged);
  }

  /** A read of an operation followed: kept with it, and the end of its following when the control plane would stop there. */
  private follow(op: OpenOperation, read: Exchange): void {
    op.reads.push({ ...read, changeSet: op.changeSet.name });
    if (!isTransient(read)) this.retried.answered([op.post, read], true);
    if (read.response && isFinalAnswer(read)) this.close(op, 'final', read.endedAt);
    else if (read.response?.status === 404) this.close(op, 'lost', read.endedAt);
    // The control plane fails the work at the first read it cannot use, and reads that operation no more.
    else if (unexpectedAnswer(read) !== undefined) this.close(op, 'unexpected', read.endedAt);
  }

  /** A read of no operation the observation follows, judged alone and, when it got no answer, with the tries of its id. */
  private judgeUnattached(read: Exchange): void {
    this.judge([read], [], undefined);
    this.retried.sent(read);
  }

  private close(op: OpenOperation, reason: PollEndReason, at: Millis): void {
    this.open.delete(op.operationId);
    this.seen.operations.ended[reason] += 1;
    const conclusion = conclusionOf(op, reason, at);
    if (reason !== 'final') {
      this.conclusions.push({ operationId: op.operationId, changeSet: op.changeSet.name, kind: op.kind, reason, conclusion });
      if (this.conclusions.length > CONCLUSIONS_KEPT) this.conclusions.shift();
    }
    const event: TranscriptEvent = { type: 'poll-ended', at, operationId: op.operationId, reason, acceptedSeq: op.post.seq, conclusion };
    this.judge([op.post, ...op.reads], [event], op.changeSet);
    const final = reason === 'final' ? op.reads[op.reads.length - 1] : undefined;
    if (op.changeSet.badInput === undefined) this.repeats.ended(op, [event], final);
    if (final) {
      this.ended.set(op.operationId, { post: op.post, final, changeSet: op.changeSet });
      if (this.ended.size > ENDED_KEPT) this.ended.delete(this.ended.keys().next().value!);
    }
  }

  /** Judges one slice of the traffic with every rule, and counts what the rules found. */
  private judge(exchanges: readonly Exchange[], events: TranscriptEvent[], changeSet: SeenChangeSet | undefined, repeated?: Exchange, onlyRules?: readonly string[]): void {
    // The slice keeps the observation's numbers: its evidence names exchanges as the observation does.
    const slice = new Transcript(exchanges, events);
    const context: JudgeContext = { ...this.settings.context, changeSets: changeSet ? [infoOf(changeSet)] : [] };
    let results = judgeRules(slice, context, only(this.settings.selection, onlyRules)).filter((result) => !isJudgedOnce(result.id) && (onlyRules === undefined || onlyRules.includes(result.id)));
    if (repeated !== undefined) results = results.map((result) => (JUDGED_ACROSS_TRAFFIC.has(result.id) && result.status === 'pass' ? repeatedResult(result, repeated, this.strict) : result));
    this.tally.add(results, slice, changeSet !== undefined, changeSet && infoOf(changeSet));
    try {
      // Stryker disable next-line OptionalChaining: an absent listener throws inside the try, which ignores it either way
      this.settings.onJudged?.(results, slice);
    } catch {
      // telling what was found is a courtesy: it never stops the judgement
    }
  }

  private countWay(post: Exchange): void {
    this.ways.calls += 1;
    if (post.response?.status === 200) this.ways.atOnce += 1;
    else if (post.response?.status === 202) this.ways.accepted += 1;
  }

  private countChangeSet(changeSet: SeenChangeSet): void {
    const type = changeSet.resourceType ?? '(no kind and type)';
    this.seen.changeSetTypes[type] = (this.seen.changeSetTypes[type] ?? 0) + 1;
    for (const action of changeSet.actions) this.seen.actions[action] = (this.seen.actions[action] ?? 0) + 1;
    if (this.hashesSeen.has(changeSet.sha256)) return;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a bound on memory no test reaches
    if (this.hashesSeen.size >= HASHES_KEPT) this.hashesSeen.clear();
    this.hashesSeen.add(changeSet.sha256);
    this.seen.distinctChangeSets += 1;
    try {
      // Stryker disable next-line OptionalChaining: an absent listener throws inside the try, which ignores it either way
      this.settings.onChangeSet?.(changeSet);
    } catch {
      // keeping a copy is a convenience: it never stops the judgement
    }
  }
}

/** The selection narrowed to `rules`, when given: a slice that only they can judge is not judged by the others at all. */
function only(selection: RuleSelection, rules: readonly string[] | undefined): RuleSelection {
  // Stryker disable next-line ConditionalExpression: the results are narrowed to `rules` after judging too; this only spares the other rules' work
  if (rules === undefined) return selection;
  const chosen = selection.only;
  return { ...selection, only: chosen === undefined ? rules : rules.filter((id) => chosen.includes(id)) };
}

function infoOf(changeSet: SeenChangeSet): { name: string; changes?: SeenChangeSet['changes']; changesError?: string } {
  return { name: changeSet.name, ...(changeSet.changes && { changes: changeSet.changes }), ...(changeSet.changesError !== undefined && { changesError: changeSet.changesError }) };
}

/** A rule judged across the traffic (operationIds are unique) broken by a 202 whose id an earlier 202 of the observation already carried. */
function repeatedResult(held: RuleResult, accepted: Exchange, strict: boolean): RuleResult {
  const id = acceptedOperationId(accepted)!;
  return {
    ...held,
    status: brokenStatus(held.level, strict),
    message: `operationId ${id} given more than once`,
    evidence: [{ note: `the 202 answer (#${accepted.seq}) carried operationId ${id}, already given by an earlier 202 of the observed traffic`, exchanges: [accepted.seq] }],
    count: 1,
  };
}

/**
 * An apply that sends a change set again, marked as the one it repeats, as a run marks its own: its answer is
 * then the repeat rules' to judge, not the everyday answers'. A plan sent again stays an everyday call, as in a run.
 */
function asRepeat(post: Exchange, repeatOf: number | undefined): Exchange {
  return repeatOf === undefined || post.tag !== 'apply' ? post : { ...post, repeatOf };
}

function conclusionOf(op: OpenOperation, reason: PollEndReason, at: Millis): string {
  const after = formatMs(at - op.post.endedAt);
  switch (reason) {
    case 'final':
      // Closed at a final answer: the last read gave it, and its outcome.
      return `the control plane recorded ${outcomeOf(op.reads[op.reads.length - 1]!)} after ${after}`;
    case 'lost':
      return `the control plane failed this work at once: a read ${after} after the 202 answered 404`;
    case 'deadline':
      return `the control plane would fail this work: no final answer within ${formatMs(op.deadlineAt - op.post.endedAt)} of the 202`;
    case 'unexpected':
      return `the control plane would fail this work: the provisioner sent an unexpected response (a read ${after} after the 202)`;
    case 'aborted':
      return `the observation ended ${after} after the 202, before this work ended`;
  }
}
