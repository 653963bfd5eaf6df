import fc from 'fast-check';
import type { PropertyResult } from '../../src/core/property-result.js';
import { InternalError, messageOf } from '../../src/errors.js';
import type { CaseVerdict, PropertyContext, PropertySpec } from './property.js';

/** Times the shrunk counterexample is run again before it is reported. */
const RERUNS = 3;

interface CaseRecord<T> {
  value: T;
  caseSuite: string;
  verdict: CaseVerdict;
}

/**
 * Runs one property against the live provisioner with fast-check: generation and shrinking are bounded by
 * the property's time limit, the shrunk counterexample is run again to tell a real failure from a flaky
 * one, and the seed is always recorded so that `--seed S --path P` replays the case.
 */
export async function checkProperty<T>(context: PropertyContext, spec: PropertySpec<T>): Promise<PropertyResult> {
  const { settings } = context;
  const seed = settings.seed ?? freshSeed();
  const replaying = settings.seed !== undefined && settings.path !== undefined;
  // Cases still running when the time limit strikes are stopped too: fast-check stops waiting for them, we stop them.
  // A timer of our own, not AbortSignal.timeout: a timeout signal held only through AbortSignal.any may be
  // collected before it fires, and the case in flight would then never hear of the limit.
  const clock = new AbortController();
  const timer = setTimeout(() => clock.abort(new Error('the property time limit is over')), settings.timeLimitMs);
  const limit = AbortSignal.any([context.signal, clock.signal]);
  const running = new Set<Promise<unknown>>();
  let counter = 0;
  let over = false;
  // fast-check reports the last failing case it saw as the counterexample: keep its verdict.
  let lastFailure: CaseRecord<T> | undefined;
  let kitFault: Error | undefined;
  // Our own clock may strike just before fast-check's: cases skipped for it make the property interrupted too.
  let cutShort = false;

  const nextSuite = (): string => `${spec.name}#${++counter}`;
  const predicate = async (value: T): Promise<boolean> => {
    // A replay runs the one case the path names; fast-check would go on to its neighbours if it held.
    if (limit.aborted) cutShort = true;
    if (over || limit.aborted || (replaying && counter > 0)) return true;
    const caseSuite = nextSuite();
    const run = runGuarded(spec, value, caseSuite, limit);
    running.add(run);
    try {
      let verdict: CaseVerdict;
      try {
        verdict = await run;
      } catch (error) {
        // Shrinking a bug of the kit would blame the provisioner: keep the error and stop the property instead.
        kitFault ??= error as Error;
        over = true;
        return true;
      }
      // A verdict that comes after fast-check stopped waiting must not change what was reported.
      if (limit.aborted) cutShort = true;
      if (over || limit.aborted) return true;
      if (verdict.broken.length > 0) lastFailure = { value, caseSuite, verdict };
      return verdict.broken.length === 0;
    } finally {
      running.delete(run);
      context.caseEnded?.();
    }
  };

  const details = await fc.check(fc.asyncProperty(spec.arbitrary, predicate), {
    numRuns: replaying ? 1 : settings.maxExamples,
    seed,
    path: replaying ? settings.path : undefined,
    endOnFailure: replaying,
    plugins: [fc.interruptAfterTimeLimit(settings.timeLimitMs)],
  });
  over = true;
  while (running.size > 0) await Promise.allSettled([...running]);
  clearTimeout(timer);
  if (kitFault) throw kitFault;

  const base = { name: spec.name, numRuns: counter, seed, interrupted: details.interrupted || cutShort };
  // Interrupted before any case ended (a very slow provisioner) is no failure: there is no counterexample.
  if (!details.failed || details.counterexample === null || !lastFailure) {
    return {
      ...base,
      status: 'passed',
      ruleIds: [],
      exchanges: [],
      notes: [],
      reruns: [],
      message: passedMessage(counter, base.interrupted, settings.timeLimitMs),
    };
  }

  const { value } = lastFailure;
  const path = details.counterexamplePath ?? undefined;
  const failure = lastFailure;
  const reruns: PropertyResult['reruns'] = [];
  for (let i = 0; i < RERUNS && !context.signal.aborted; i++) {
    const verdict = await runGuarded(spec, value, nextSuite(), context.signal);
    const reproduced = verdict.broken.some((id) => failure.verdict.broken.includes(id));
    reruns.push({ reproduced, exchanges: verdict.exchanges, notes: verdict.notes });
    if (reproduced) break;
  }
  const flaky = reruns.length > 0 && !reruns.some((r) => r.reproduced);
  const replay = `--property ${spec.name} --seed ${seed}${path === undefined ? '' : ` --path ${path}`}`;
  return {
    ...base,
    numRuns: counter - reruns.length,
    status: flaky ? 'flaky' : 'failed',
    path,
    ruleIds: failure.verdict.broken,
    counterexample: spec.describe(value),
    exchanges: failure.verdict.exchanges,
    notes: failure.verdict.notes,
    reruns,
    message: flaky
      ? `broke ${failure.verdict.broken.join(', ')} once, but none of ${reruns.length} re-runs did; replay with ${replay}`
      : `broke ${failure.verdict.broken.join(', ')}; replay with ${replay}`,
  };
}

async function runGuarded<T>(spec: PropertySpec<T>, value: T, caseSuite: string, signal: AbortSignal): Promise<CaseVerdict> {
  try {
    return await spec.runCase(value, caseSuite, signal);
  } catch (error) {
    // A case that threw is a fault of the kit, never of the provisioner.
    throw new InternalError(`${caseSuite}: the kit failed while running a case: ${messageOf(error)}`, { cause: error });
  }
}

function freshSeed(): number {
  return Math.floor(Math.random() * 0x7fffffff);
}

function passedMessage(cases: number, interrupted: boolean, timeLimitMs: number): string {
  if (!interrupted) return `held over ${cases} cases`;
  return `held over ${cases} cases before the time limit of ${Math.round(timeLimitMs / 1000)} s stopped it`;
}
