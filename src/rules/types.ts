import type { JudgeContext } from '../core/judge-context.js';
import type { Transcript } from '../transcript/transcript.js';

export type Level = 'MUST' | 'SHOULD' | 'ADVICE';

/**
 * A rule's status in a report. `warn` and `advice` are a broken SHOULD and ADVICE rule; `error` says the
 * kit failed while judging it (a bug in the kit), so nothing is known about the rule; `waived` is a failure
 * a baseline accepts for a while (never a pass).
 */
export type RuleStatus = 'pass' | 'fail' | 'warn' | 'advice' | 'skip' | 'not-exercised' | 'error' | 'waived';

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
  | { outcome: 'not-exercised'; message: string };

/** A pure judgement of the run's transcript: no HTTP, no clock. */
export type Judge = (transcript: Transcript, context: JudgeContext) => Judgement;

/** One rule of the contract: its stable id and level, the kit's sentence for it, and its judge. */
export interface Rule {
  id: string;
  level: Level;
  section: RuleSection;
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
