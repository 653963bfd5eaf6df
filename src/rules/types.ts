import type { JudgeContext } from '../core/judge-context.js';
import type { Transcript } from '../transcript/transcript.js';

export type Level = 'MUST' | 'SHOULD' | 'ADVICE';

/**
 * A rule's status in a report. `warn` and `advice` are a broken SHOULD and ADVICE rule; `error` says the
 * kit failed while judging it (a bug in the kit), so nothing is known about the rule; `waived` is a failure
 * a baseline accepts for a while (never a pass). `not-applicable`: the provisioner never chose the way of
 * answering the rule is about, as the contract allows; `not-exercised`: the run should have produced the
 * situation and did not. Neither is a pass.
 */
export type RuleStatus = 'pass' | 'fail' | 'warn' | 'advice' | 'skip' | 'not-applicable' | 'not-exercised' | 'error' | 'waived';

export type RuleSection = 'answers' | 'final' | 'reads' | 'registration' | 'repeats' | 'load' | 'bad-input';

/** One piece of evidence: a sentence, and the exchanges (by seq) that show it. The first is the key one. */
export interface Evidence {
  note: string;
  exchanges: number[];
}

/** What a judge concludes. The level of the rule turns `broken` into fail, warn or advice. */
export type Judgement =
  | { outcome: 'held'; message: string; evidence?: Evidence[] }
  | { outcome: 'broken'; message: string; evidence: Evidence[]; count?: number }
  | { outcome: 'not-applicable'; message: string }
  | { outcome: 'not-exercised'; message: string };

/** A pure judgement of the run's transcript: no HTTP, no clock. */
export type Judge = (transcript: Transcript, context: JudgeContext) => Judgement;

/**
 * The part of the run's transcript a rule judges. The kit provokes some situations on purpose (a restart, a
 * burst, repeats), and what they provoke is judged by the rule about that situation alone, never by a rule
 * about everyday calls. Every view but `whole` leaves out the restart suite and whatever was in flight while
 * the provisioner restarted.
 */
export type RuleView =
  /** Everything, the restart included: for the rule about restarts. */
  | 'whole'
  /** Everything but the restart. */
  | 'without-restart'
  /** Without the restart and the burst's own plan and apply calls (a full provisioner holds them open to run them at once). */
  | 'without-burst-calls'
  /** Without the restart and any plan or apply the burst overloaded (429, 5xx, a reset while the burst was in flight). */
  | 'without-burst-overload'
  /** Without the restart, the burst's calls, calls sent again on purpose, and calls the burst overloaded: first calls at ease. */
  | 'without-burst-repeats-or-overload';

/**
 * A situation whose exchanges can show whether a rule holds. A run drives each on purpose; observed traffic
 * has the ones the control plane makes (a read after a final answer, a repeat that really happened), judged
 * when they happen.
 */
export type RuleSituation =
  /** A POST /plan or /apply of a valid change set, and its answer. */
  | 'call'
  /** A read of an accepted operation, up to and with its final answer, concurrent readers included. */
  | 'read'
  /** A read of an operation sent after its final answer arrived: a probe, or the control plane reading again. */
  | 'read-after-final'
  /** The same change set sent again: a plan twice, an apply after or while the first one ran. */
  | 'repeat'
  /** A read of a UUID the provisioner never issued. */
  | 'unknown-id'
  /** A read whose id is not a UUID. */
  | 'malformed-id'
  /** Many plan and apply calls at once. */
  | 'burst'
  /** A restart of the provisioner while operations were in progress. */
  | 'restart'
  /** A POST whose body is not JSON, or JSON but no change set. */
  | 'bad-input'
  /** The registration document: one document, not an exchange, judged once per run or observation. */
  | 'registration';

/** A kind of property case, by what it sends: each judges its own slice of the run by the rules that name it. */
export type PropertyCase =
  /** A generated change set sent to plan (and to apply, when the user allows it). */
  | 'generated-change-set'
  /** A generated change set applied, then planned and applied again as the control plane's next run would. */
  | 'generated-repeat'
  /** A model-based run's commands: submits, reads of known, unknown and malformed ids, waits. */
  | 'model-based'
  /** A generated body that is not JSON. */
  | 'malformed-json'
  /** A generated JSON body that is no change set. */
  | 'invalid-change-set';

/**
 * One rule of the contract: its stable id and level, the kit's sentence for it, its judge, and how it is
 * judged (the view of the transcript it sees, the situations that show it, which property cases judge it).
 * Only these fields decide how a rule is judged: no consumer keeps its own list of ids.
 */
export interface Rule {
  id: string;
  level: Level;
  section: RuleSection;
  /** The part of the transcript the judge sees. */
  view: RuleView;
  /**
   * The rule is about how loaded the provisioner was at a moment (slow answers, transient 5xx or timeouts),
   * not about what a call's input did: no property case judges it (`judgedInCases` is empty).
   */
  timing: boolean;
  /**
   * A call can break the rule only by outlasting the operation deadline: showing it again costs the whole
   * deadline, so once the run has seen it fail, a property does not shrink a failure that broke only such rules.
   */
  shownByWaitingOutDeadline?: boolean;
  /**
   * The situations whose exchanges can show whether the rule holds. Observed traffic judges a read after a final
   * answer by the rules with `read-after-final`, and the rules with `registration` once, on the registration
   * document; `check-registration` judges those alone.
   */
  situations: readonly RuleSituation[];
  /**
   * The property cases that judge the rule on their own slice of the run; empty when no case does (timing rules:
   * a case's input does not decide how loaded the provisioner was, and shrinking on them would chase noise).
   */
  judgedInCases: readonly PropertyCase[];
  /**
   * Observed traffic is judged in slices as it flows (an operation when it ends). A rule judged across the
   * traffic compares a slice with every earlier one (an operationId an earlier 202 already carried): the observer
   * decides it from the operationIds it remembers, and the evidence an observation keeps cannot show it again.
   */
  judgedAcrossTraffic: boolean;
  title: string;
  /** The rule in the kit's own words (the contract states it; this is what reports print). */
  sentence: string;
  judge: Judge;
}

export interface RuleResult {
  id: string;
  level: Level;
  title: string;
  sentence: string;
  status: RuleStatus;
  message: string;
  evidence: Evidence[];
  count?: number;
  /** Present when a baseline waived this rule: why, until when, and what it would have been. */
  waiver?: { reason: string; expires: string; status: 'fail' | 'warn' | 'advice' };
}
