import type { TrafficSeen } from '../core/observation.js';
import type { RuleBreaks } from './rule-breaks.js';

/**
 * What the judges tell as they go, for the lines an observation prints while it runs. It lives here, apart from
 * the worker that sends it, so that the public types never reach the worker's Node-only ones.
 */
export interface JudgingNews {
  /** Shows the secrets of the traffic in the notes of rules broken (`--show-secrets`). */
  showSecrets: boolean;
  breaks(breaks: RuleBreaks): void;
  operations(operations: JudgedOperations): void;
}

/** How far the judges got with the operations, counted: what a progress line shows of them. */
export interface JudgedOperations {
  /** Operations accepted with a 202 and followed. */
  followed: number;
  /** Followed now: no final answer, 404 or deadline yet. */
  open: number;
  /** Ended, however (final answer, lost, unexpected answer, deadline). */
  ended: number;
}

export const NO_OPERATIONS: JudgedOperations = { followed: 0, open: 0, ended: 0 };

export function judgedOperations(traffic: TrafficSeen): JudgedOperations {
  const { accepted, open, ended } = traffic.operations;
  return { followed: accepted, open, ended: Object.values(ended).reduce((sum, count) => sum + count, 0) };
}

export function sameOperations(a: JudgedOperations, b: JudgedOperations): boolean {
  return a.followed === b.followed && a.open === b.open && a.ended === b.ended;
}
