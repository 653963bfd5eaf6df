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
 * One rule of the contract: its stable id and level, the kit's sentence for it, its judge, and how it is
 * judged (the view of the transcript it sees, whether it is about timing).
 */
export interface Rule {
  id: string;
  level: Level;
  section: RuleSection;
  /** The part of the transcript the judge sees. */
  view: RuleView;
  /**
   * The rule is about how loaded the provisioner was at a moment (slow answers, transient 5xx or timeouts),
   * not about what a call's input did: a property case judges it only when it is named, never through a
   * `section.*` pattern.
   */
  timing: boolean;
  /**
   * A call can break the rule only by outlasting the operation deadline: showing it again costs the whole
   * deadline, so once the run has seen it fail, a property does not shrink a failure that broke only such rules.
   */
  shownByWaitingOutDeadline?: boolean;
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
