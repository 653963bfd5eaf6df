import { describe, expect, it } from 'vitest';
import { FailRates, nextToRun, type AheadState } from '../../suites/properties/shrink-ahead.js';

/** A shrink tree written out: a name, and its candidates in order. */
class Tree {
  readonly kids: Tree[];
  index = 0;
  taken = 0;

  constructor(
    readonly name: string,
    ...kids: Tree[]
  ) {
    this.kids = kids;
    kids.forEach((kid, index) => (kid.index = index));
  }

  candidate(index: number): Tree | undefined {
    this.taken = Math.max(this.taken, index + 1);
    return this.kids[index];
  }
}

const t = (name: string, ...kids: Tree[]): Tree => new Tree(name, ...kids);

/** Three levels of three candidates each: a, a.a, a.a.a and so on. */
function full(name = '', depth = 3): Tree {
  return t(name, ...(depth === 0 ? [] : ['a', 'b', 'c'].map((k) => full(name ? `${name}.${k}` : k, depth - 1))));
}

function names(nodes: Tree[]): string[] {
  return nodes.map((node) => node.name);
}

function states(known: Record<string, AheadState>): (node: Tree) => AheadState {
  return (node) => known[node.name];
}

describe('choosing shrink candidates to run ahead', () => {
  it('starts with the candidate fast-check asks for next: the first not judged after those that held', () => {
    const root = full();
    expect(names(nextToRun(root, 1, states({ a: 'held', b: 'held' }), { failRate: () => 0.5, deep: true }))).toEqual(['c']);
    expect(names(nextToRun(root, 1, states({ a: 'failed', 'a.a': 'held' }), { failRate: () => 0.5, deep: true }))).toEqual(['a.b']);
  });

  it('goes down into a candidate not yet judged only when its candidates follow from its value alone', () => {
    const root = full();
    expect(names(nextToRun(root, 3, states({}), { failRate: () => 0.5, deep: false }))).toEqual(['a', 'b', 'c']);
    // As likely to be asked for: the first candidate's first candidate (if it fails) and the second (if it holds).
    expect(names(nextToRun(root, 3, states({}), { failRate: () => 0.5, deep: true }))).toEqual(['a', 'a.a', 'b']);
    // Running candidates are not chosen again, but what lies below them is.
    expect(names(nextToRun(root, 2, states({ a: 'running' }), { failRate: () => 0.5, deep: true }))).toEqual(['a.a', 'b']);
    expect(names(nextToRun(root, 2, states({ a: 'running' }), { failRate: () => 0.5, deep: false }))).toEqual(['b', 'c']);
  });

  it('goes down into a candidate that failed whatever its kind, and never past it at its level', () => {
    const root = full();
    const chosen = names(nextToRun(root, 20, states({ a: 'held', b: 'failed' }), { failRate: () => 0.5, deep: false }));
    expect(chosen).toEqual(['b.a', 'b.b', 'b.c']);
    expect(names(nextToRun(root, 20, states({ a: 'held', b: 'failed' }), { failRate: () => 0.5, deep: true })).every((name) => name.startsWith('b.'))).toBe(true);
  });

  it('leans deeper when candidates mostly fail, wider when they mostly hold', () => {
    const root = full();
    expect(names(nextToRun(root, 3, states({}), { failRate: () => 0.9, deep: true }))).toEqual(['a', 'a.a', 'a.a.a']);
    expect(names(nextToRun(root, 3, states({}), { failRate: () => 0.1, deep: true }))).toEqual(['a', 'b', 'c']);
  });

  it('chooses at most as many as asked, fewer when the tree has no more, and takes no candidate it does not need', () => {
    const root = full();
    expect(nextToRun(root, 0, states({}), { failRate: () => 0.5, deep: true })).toEqual([]);
    expect(root.taken).toBe(0);
    const small = t('', t('a'), t('b'));
    expect(names(nextToRun(small, 10, states({}), { failRate: () => 0.5, deep: true }))).toEqual(['a', 'b']);
    expect(nextToRun(small, 10, states({ a: 'running', b: 'held' }), { failRate: () => 0.5, deep: true })).toEqual([]);
  });
});

describe('the failure rates that lean the choice', () => {
  it('are a half where nothing was judged, and lean towards what was seen without ever reaching certainty', () => {
    const rates = new FailRates();
    expect(rates.at(3, 1)).toBe(0.5);
    for (let level = 0; level < 5; level++) {
      for (let index = 0; index < 3; index++) rates.record(index, 3, false);
      rates.record(3, 3, true);
    }
    expect(rates.at(3, 3)).toBeGreaterThan(0.9);
    expect(rates.at(3, 3)).toBeLessThan(1);
    expect(rates.at(1, 3)).toBeLessThan(0.1);
    expect(rates.at(1, 3)).toBeGreaterThan(0);
  });

  it('count a place apart for each place of its parent, leaning on the place alone where that was never judged', () => {
    const rates = new FailRates();
    for (let i = 0; i < 4; i++) rates.record(0, 0, true);
    for (let i = 0; i < 4; i++) rates.record(0, 5, false);
    // Below a parent at 0 the place failed every time, below one at 5 never; below a parent at 2 it leans on both.
    expect(rates.at(0, 0)).toBeGreaterThan(0.8);
    expect(rates.at(0, 5)).toBeLessThan(0.2);
    expect(rates.at(0, 2)).toBe(0.5);
  });

  it('follow the place where the last levels failed, several levels down, once seen', () => {
    // Each level: three candidates that hold, then one that fails; the rates learnt send the choice down that path.
    const chain = (depth: number): Tree => t(`d${depth}`, t('x'), t('y'), t('z'), depth === 0 ? t('end') : chain(depth - 1));
    const root = chain(6);
    const rates = new FailRates();
    for (let level = 0; level < 4; level++) {
      for (let index = 0; index < 3; index++) rates.record(index, 3, false);
      rates.record(3, 3, true);
    }
    const chosen = names(nextToRun(root, 12, () => undefined, { failRate: (index, parent) => rates.at(index, parent), deep: true }));
    expect(chosen.slice(0, 12)).toEqual(['x', 'y', 'z', 'd5', 'x', 'y', 'z', 'd4', 'x', 'y', 'z', 'd3']);
  });
});
