import type { TrafficSeen } from '../core/observation.js';

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
