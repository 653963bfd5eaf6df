import { formatMs } from '../core/duration.js';
import { isoDuration } from './live-frame.js';

/**
 * When a run will have ended at the latest, from what it knows now: the deadline of every operation in flight
 * (accepted at + maxOperationDuration), and for what is still running or still to come, the run's chain of
 * waits counted in operation-lengths (the longest a plan or an apply may take). Pure: the caller gives the clock.
 *
 * The chain, as the runner drives it: the scenarios start at once, and a scenario waits for at most two
 * operation-lengths one after another (an apply, then its repeat after the end); with a restart, the provisioner
 * is restarted once the scenarios' opening calls are answered, for at most its own time limit, and everything
 * else waits for it; then the burst waits for one operation-length; the properties start when the burst is over
 * and wait for at most `propertyChain`.
 */

/** The parts of a run, by what their waits are bounded by. */
export type Phase = 'scenarios' | 'burst' | 'properties' | 'late-reads' | 'restart';

/** What the run was asked to do, known when it starts. */
export interface RunPlan {
  /** maxOperationDuration: an operation-length, the longest one wait may take. */
  operationMs: number;
  properties: boolean;
  /** Operation-lengths a property case waits for one after another. */
  propertyChain: number;
  /** --restart-timeout, when a restart is to run. */
  restartTimeoutMs?: number;
  /** A burst is to run (--burst above 0). */
  burst?: boolean;
  /** When --time-limit stops the run, epoch ms. */
  timeLimitEndsAt?: number;
}

/** Operation-lengths a scenario waits for one after another: an apply, then its repeat after the end. */
export const SCENARIO_CHAIN = 2;

export function phaseOf(suite: string): Phase {
  if (suite === 'scenario/burst') return 'burst';
  if (suite === 'scenario/restart') return 'restart';
  if (suite === 'scenario/late-reads') return 'late-reads';
  return suite.startsWith('property/') ? 'properties' : 'scenarios';
}

/** Which phases have started, when, and how many of their suites still run. */
export class PhaseBoard {
  private readonly phases = new Map<Phase, { startedAt: number; running: number }>();

  started(suite: string, at: number): void {
    const phase = this.phases.get(phaseOf(suite));
    if (phase) phase.running++;
    else this.phases.set(phaseOf(suite), { startedAt: at, running: 1 });
  }

  ended(suite: string): void {
    const phase = this.phases.get(phaseOf(suite));
    if (phase) phase.running = Math.max(0, phase.running - 1);
  }

  /** When the phase's first suite started, while one of its suites runs. */
  runningSince(phase: Phase): number | undefined {
    const state = this.phases.get(phase);
    return state && state.running > 0 ? state.startedAt : undefined;
  }

  hasStarted(phase: Phase): boolean {
    return this.phases.has(phase);
  }
}

/** What bounds the end: the operations in flight, a phase's chain of waits, or the time limit. */
export type EndBound = 'deadlines' | 'scenarios' | 'burst' | 'properties' | 'restart' | 'time limit';

export interface ExpectedEnd {
  /** Epoch ms. */
  at: number;
  bound: EndBound;
}

/** The phases the plan has that have not started yet, in the order they will. */
export function phasesToCome(plan: RunPlan, phases: PhaseBoard): Phase[] {
  const planned: Phase[] = [
    ...(plan.restartTimeoutMs !== undefined ? (['restart'] as const) : []),
    ...(plan.burst ? (['burst'] as const) : []),
    ...(plan.properties ? (['properties'] as const) : []),
  ];
  return planned.filter((phase) => !phases.hasStarted(phase));
}

/** The latest the run ends by, or nothing while nothing runs or is still to come. */
export function expectedEnd(plan: RunPlan, phases: PhaseBoard, deadlines: readonly number[], now: number): ExpectedEnd | undefined {
  const length = plan.operationMs;
  const bounds: ExpectedEnd[] = [];
  const consider = (at: number | undefined, bound: EndBound): void => {
    if (at !== undefined) bounds.push({ at, bound });
  };
  const latest = (): ExpectedEnd | undefined => bounds.reduce<ExpectedEnd | undefined>((found, next) => (found === undefined || next.at > found.at ? next : found), undefined);
  for (const deadline of deadlines) consider(deadline, 'deadlines');
  // Without an operation-length the chain says nothing: only the deadlines bound the end.
  if (length > 0) {
    const since = (phase: Phase, waitMs: number): number | undefined => {
      const start = phases.runningSince(phase);
      return start === undefined ? undefined : start + waitMs;
    };
    consider(since('scenarios', SCENARIO_CHAIN * length), 'scenarios');
    const toCome = phasesToCome(plan, phases);
    // The restart comes first (once the opening calls are answered), bounded by its own time limit.
    const restartMs = plan.restartTimeoutMs ?? 0;
    const restartEnd = toCome.includes('restart') ? now + restartMs : since('restart', restartMs);
    consider(restartEnd, 'restart');
    const afterRestart = Math.max(restartEnd ?? now, now);
    const burstEnd = toCome.includes('burst') ? afterRestart + length : since('burst', length);
    consider(burstEnd, 'burst');
    const propertiesMs = plan.propertyChain * length;
    consider(toCome.includes('properties') ? Math.max(burstEnd ?? afterRestart, now) + propertiesMs : since('properties', propertiesMs), 'properties');
  }
  const end = latest();
  if (end === undefined || plan.timeLimitEndsAt === undefined || end.at <= plan.timeLimitEndsAt) return end;
  return { at: plan.timeLimitEndsAt, bound: 'time limit' };
}

/** `10:42:07`, in the time zone the log lines use. */
export function wallClock(at: number): string {
  const date = new Date(at);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}

function boundText(end: ExpectedEnd, plan: RunPlan): string {
  const length = isoDuration(plan.operationMs);
  switch (end.bound) {
    case 'deadlines':
    case 'time limit':
      return end.bound;
    case 'scenarios':
      return `scenarios ${SCENARIO_CHAIN}×${length}`;
    case 'burst':
      return `burst ${length}`;
    case 'properties':
      return `properties ${plan.propertyChain}×${length}`;
    case 'restart':
      return `restart ${isoDuration(plan.restartTimeoutMs ?? 0)}`;
  }
}

/** `ends by 10:42:07 at the latest, in 11m08s (properties 2×PT5M)`: the time, how far off, and what bounds it. */
export function expectedEndText(end: ExpectedEnd, plan: RunPlan, now: number): string {
  const left = end.at - now;
  const when = left > 0 ? `in ${formatMs(left)}` : 'any moment now';
  return `ends by ${wallClock(end.at)} at the latest, ${when} (${boundText(end, plan)})`;
}
