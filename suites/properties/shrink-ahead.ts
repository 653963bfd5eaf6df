/**
 * Which shrink candidates to run before fast-check asks for them. fast-check walks a tree: from a failing case it
 * tries the candidates in order, and goes down into the first that fails. Against slow work each candidate costs an
 * operation-length, so waiting for each level before starting the next costs one length per level. Run ahead instead
 * the candidates most likely to be asked for: a candidate is asked for when every one before it at its level held
 * and its parent failed, so its chance is the product, along its path, of the chance that each parent not yet judged
 * fails and that each earlier sibling not yet judged holds (a sibling known to fail rules out the rest of its level;
 * one known to hold costs nothing). Those chances come from the candidates judged so far at the same place of their
 * level: a shrinker tries the same kinds of change in the same order at every level (first drop items, then make
 * each smaller), so the place where a level's failure was found is where the next level's is likely to be: each
 * place is counted apart for each place of its parent. fast-check still asks in its own order and takes the first
 * failure it meets, so the counterexample and its path are those of one candidate at a time.
 */

/** A node of the shrink tree: its place among its parent's candidates, and its own in fast-check's order (undefined past the last). */
export interface AheadNode {
  readonly index: number;
  candidate(index: number): AheadNode | undefined;
}

/** What is known of a candidate: not started, running, or judged (failed or held). */
export type AheadState = 'running' | 'failed' | 'held' | undefined;

export interface AheadOptions {
  /** The chance that a candidate at place `index` of its level fails, its parent having been at `parentIndex` of its own. */
  failRate(index: number, parentIndex: number): number;
  /** Whether a candidate's own candidates may run before it is judged: only when they follow from its value alone. */
  deep: boolean;
}

/** Below this chance of being asked for, a candidate is not worth a place. */
const LEAST_CHANCE = 0.05;
/** A bound on the tree walked for one choice, whatever its shape. */
const MOST_VISITS = 2_000;

interface Entry<N> {
  chance: number;
  parent: N;
  index: number;
  /** Order of discovery: ties go to the one found first, so that the choice is the same every time. */
  order: number;
}

/**
 * Up to `count` candidates below `root` (a failing case) that are not started yet, the likeliest to be asked for
 * first. The candidate fast-check asks for next always comes first: every step to it is known.
 */
export function nextToRun<N extends AheadNode>(root: N, count: number, stateOf: (node: N) => AheadState, options: AheadOptions): N[] {
  const chosen: N[] = [];
  let order = 0;
  const frontier: Array<Entry<N>> = [{ chance: 1, parent: root, index: 0, order: order++ }];
  for (let visits = 0; chosen.length < count && frontier.length > 0 && visits < MOST_VISITS; visits++) {
    const entry = takeLikeliest(frontier);
    const node = entry.parent.candidate(entry.index) as N | undefined;
    if (node === undefined) continue;
    const state = stateOf(node);
    if (state === undefined) chosen.push(node);
    // The chance that this candidate fails: known once judged, else the rate seen so far.
    const fails = state === 'failed' ? 1 : state === 'held' ? 0 : Math.min(0.99, Math.max(0.01, options.failRate(entry.index, entry.parent.index)));
    const below = entry.chance * fails;
    if (below >= LEAST_CHANCE && (state === 'failed' || options.deep)) frontier.push({ chance: below, parent: node, index: 0, order: order++ });
    const next = entry.chance * (1 - fails);
    if (next >= LEAST_CHANCE) frontier.push({ chance: next, parent: entry.parent, index: entry.index + 1, order: order++ });
  }
  return chosen;
}

function takeLikeliest<N>(frontier: Array<Entry<N>>): Entry<N> {
  let best = 0;
  for (let i = 1; i < frontier.length; i++) {
    const a = frontier[i]!;
    const b = frontier[best]!;
    if (a.chance > b.chance || (a.chance === b.chance && a.order < b.order)) best = i;
  }
  return frontier.splice(best, 1)[0]!;
}

/**
 * How often candidates failed at each place of their levels, below a parent at each place of its own. A place
 * below a parent's place seldom judged leans on the place alone: (failures + the place's rate) / (judged + 1), the
 * place's rate being (failures + 1) / (judged + 2), a half for a place never judged. A few verdicts lean the choice
 * and none makes it certain.
 */
export class FailRates {
  private readonly counts = new Map<string, { judged: number; failed: number }>();

  record(index: number, parentIndex: number, failed: boolean): void {
    for (const key of [`${index}`, `${index}/${parentIndex}`]) {
      const count = this.count(key);
      this.counts.set(key, { judged: count.judged + 1, failed: count.failed + (failed ? 1 : 0) });
    }
  }

  at(index: number, parentIndex: number): number {
    const place = this.count(`${index}`);
    const placeRate = (place.failed + 1) / (place.judged + 2);
    const below = this.count(`${index}/${parentIndex}`);
    return (below.failed + placeRate) / (below.judged + 1);
  }

  private count(key: string): { judged: number; failed: number } {
    return this.counts.get(key) ?? { judged: 0, failed: 0 };
  }
}
