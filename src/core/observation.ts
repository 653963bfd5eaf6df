import type { PollEndReason } from './operation-conclusion.js';

/** What one rule met over an observation of real traffic. */
export interface RuleCount {
  /** Situations (operations, or calls answered at once) that exercised the rule. */
  exercised: number;
  held: number;
  broken: number;
}

/** How the observed operations went, counted. */
export interface OperationCounts {
  accepted: number;
  /** Still followed when the report was made: no final answer, 404 or deadline yet. */
  open: number;
  ended: Record<PollEndReason, number>;
}

/** What an observation saw of the traffic, beyond the rules. */
export interface TrafficSeen {
  /** Exchanges of the contract (plan, apply, reads of operations). */
  exchanges: number;
  byTag: { plan: number; apply: number; poll: number };
  /** Requests that were none of the contract's: passed through, not judged. */
  otherRequests: number;
  /** Reads of an id no observed 202 carried (the observer started later, or the control plane read after the end). */
  unattachedReads: number;
  /** Resource types of the change sets, with how many plan and apply calls carried each. */
  changeSetTypes: Record<string, number>;
  /** Actions of the changes, with how many changes had each. */
  actions: Record<string, number>;
  distinctChangeSets: number;
  operations: OperationCounts;
}

/** An observation of real traffic (`observe`, `verify --har`): what it saw, and how often each rule was exercised. */
export interface Observation {
  source: 'proxy' | 'har';
  traffic: TrafficSeen;
  rules: Record<string, RuleCount>;
  /** Failures of the recording side (never of the traffic): how many, and the first. */
  recordingErrors?: { count: number; first: string };
}
