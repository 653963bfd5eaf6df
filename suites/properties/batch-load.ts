import type { BatchOrigin } from './batch-arbitrary.js';

/**
 * A sub-case is judged with other cases in flight: the rest of its batch, or, as a shrink candidate, the candidates
 * run ahead beside it. A failure may need that load (a provisioner that answers late, or races, only when many
 * cases run at once, or a case that reaches the end of some work only because the load slowed its own steps), so
 * a property that can run a case as load alone re-runs and replays a case the way it was judged: beside as many
 * cases as were in flight then, taken from its batch (the one it was generated in, however far it was shrunk) and
 * all started with it. What runs beside a case is fixed by the batch (the seed and the recorded size), the case's
 * place and the shrink width of that place, so `--seed S --path SIZE/PATH` runs the same load again.
 */
export interface Beside<T> {
  /** The batch the case was generated in, and its place there. */
  origin: BatchOrigin<T>;
  /** How many of that batch's other sub-cases run beside it. */
  count: number;
}

/** The sub-cases that run beside a case: the `count` places after its own, wrapping around its batch, never its own. */
export function neighboursOf<T>({ origin, count }: Beside<T>): T[] {
  const { batch, index } = origin;
  const taken = Math.max(0, Math.min(Math.floor(count), batch.length - 1));
  return Array.from({ length: taken }, (_, i) => batch[(index + 1 + i) % batch.length]!);
}

/**
 * What ran beside a case when it was judged: a sub-case of a generated batch ran beside all of that batch's others;
 * a shrink candidate beside the other candidates of its place running ahead with it, `width - 1` of them.
 */
export function besideOf<T>(origin: BatchOrigin<T>, generated: boolean, width: number): Beside<T> {
  return { origin, count: generated ? origin.batch.length - 1 : Math.max(0, Math.floor(width) - 1) };
}
