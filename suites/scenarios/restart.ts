import { now } from '../../src/client/clock.js';
import { formatMs } from '../../src/core/duration.js';
import { messageOf, RestartFailedError } from '../../src/errors.js';
import type { Restart } from '../../src/core/restart.js';
import type { LoadedChangeSet } from '../../src/config/change-sets.js';
import type { OperationConclusion } from '../../src/core/operation-conclusion.js';
import { SITUATION_SUITES } from '../../src/transcript/situations.js';
import { acceptedOperationId } from '../../src/transcript/views.js';
import { post } from '../post.js';
import type { Suite, SuiteContext } from '../suite.js';

const SUITE = SITUATION_SUITES.restart;

/**
 * Accepts work, restarts the provisioner while that work is in progress, and follows it through the
 * restart as the control plane would (refused connections and 5xx mean "read again"). It plans every
 * change set and applies the first one; it runs alone, after every other suite, because a restart
 * refuses everyone's calls for a while.
 */
export function restartSuite(restart: Restart, timeoutMs: number): Suite {
  return {
    name: SUITE,
    cases: (context) => callsOf(context).length,
    async run(context: SuiteContext): Promise<void> {
      const calls = callsOf(context);
      const answers = await Promise.all(calls.map(({ kind, changeSet }) => post(context, { suite: SUITE, kind, body: changeSet.text, changeSet: changeSet.name })));
      const transcript = context.client.transcript;
      const accepted = answers.flatMap((answer) => {
        const operationId = acceptedOperationId(answer);
        return operationId ? [{ answer, operationId }] : [];
      });
      // A call answered at once has no work to carry across the restart: its case has ended.
      for (let i = accepted.length; i < answers.length; i++) context.caseEnded?.();
      if (accepted.length === 0 || context.signal.aborted) {
        transcript.note({ type: 'restart-skipped', at: now(), message: 'the provisioner was not restarted: no call was answered with 202, so no work would have been in progress' });
        return;
      }
      // Following stops when the restart fails: a provisioner that did not come back would be read until the deadline.
      const stop = new AbortController();
      const follows = accepted.map(({ answer, operationId }) =>
        context.poller
          .follow({ accepted: answer, operationId, kind: answer.tag as 'plan' | 'apply', changeSet: answer.changeSet, suite: SUITE, stop: stop.signal })
          .then((conclusion: OperationConclusion) => {
            context.concluded(conclusion);
            context.caseEnded?.();
          }),
      );
      try {
        await restartOnce(context, restart, timeoutMs);
      } catch (error) {
        stop.abort(new Error(`the restart failed (${messageOf(error)})`));
        await Promise.all(follows);
        throw error;
      }
      await Promise.all(follows);
    },
  };
}

/** Every change set planned, and the first applied: the work in progress across the restart. */
function callsOf(context: SuiteContext): Array<{ kind: 'plan' | 'apply'; changeSet: LoadedChangeSet }> {
  const first = context.changeSets[0];
  return [
    ...context.changeSets.map((changeSet) => ({ kind: 'plan' as const, changeSet })),
    ...(context.planOnly || !first ? [] : [{ kind: 'apply' as const, changeSet: first }]),
  ];
}

/** Runs the restart within its time limit and records when it started and ended, with what it printed. */
async function restartOnce(context: SuiteContext, restart: Restart, timeoutMs: number): Promise<void> {
  const transcript = context.client.transcript;
  const limit = new AbortController();
  const timer = setTimeout(() => limit.abort(new Error(`did not end within ${formatMs(timeoutMs)} (--restart-timeout)`)), timeoutMs);
  const signal = AbortSignal.any([context.signal, limit.signal]);
  transcript.note({ type: 'restart-started', at: now(), describe: restart.describe });
  try {
    // A restart that does not heed its signal is still bounded by it.
    const report = await Promise.race([restart.run(signal), aborted(signal)]);
    transcript.note({ type: 'restart-ended', at: now(), ok: true, message: `${restart.describe}: done`, ...(report?.output ? { output: report.output } : {}) });
  } catch (thrown) {
    const error =
      thrown instanceof RestartFailedError ? thrown : new RestartFailedError(`${restart.describe} failed: ${thrown instanceof Error ? thrown.message : String(thrown)}`);
    transcript.note({ type: 'restart-ended', at: now(), ok: false, message: error.message, ...(error.output ? { output: error.output } : {}) });
    // A run stopped by the user is an interrupted run, not a broken restart.
    if (!context.signal.aborted) throw error;
  } finally {
    clearTimeout(timer);
  }
}

function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const fail = (): void => reject(new RestartFailedError(signal.reason instanceof Error ? `the restart ${signal.reason.message}` : 'the restart was stopped'));
    if (signal.aborted) fail();
    else signal.addEventListener('abort', fail, { once: true });
  });
}
