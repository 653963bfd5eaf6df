import { now } from '../../src/client/clock.js';
import { formatMs } from '../../src/core/duration.js';
import { RestartFailedError } from '../../src/errors.js';
import type { Restart } from '../../src/core/restart.js';
import type { Exchange } from '../../src/transcript/exchange.js';
import { SITUATION_SUITES } from '../../src/transcript/situations.js';
import { acceptedOperationId } from '../../src/transcript/views.js';
import type { Suite, SuiteContext } from '../suite.js';

const SUITE = SITUATION_SUITES.restart;

/**
 * Restarts the provisioner while the run's opening calls are in progress: the plans and the first applies of
 * the everyday story (and the apply sent again while it runs), which go first and alone. Their suite follows
 * them through the restart as the control plane would (refused connections and 5xx mean "read again"), and
 * every other suite starts once the restart has ended, so no other call or read meets it. Restarting at the
 * start rather than after everything costs the run no operation-length of its own: the opening work is the
 * first run of each lock anyway, and a provisioner that does not come back is known at once.
 * `opening` resolves to the answers of the opening calls.
 */
export function restartSuite(restart: Restart, timeoutMs: number, opening: Promise<readonly Exchange[]>): Suite {
  return {
    name: SUITE,
    cases: () => 1,
    async run(context: SuiteContext): Promise<void> {
      const answers = await opening;
      const transcript = context.client.transcript;
      if (context.signal.aborted) {
        transcript.note({ type: 'restart-skipped', at: now(), message: 'the provisioner was not restarted: the run was stopped before its opening calls were answered' });
        return;
      }
      if (!answers.some((answer) => acceptedOperationId(answer))) {
        transcript.note({ type: 'restart-skipped', at: now(), message: 'the provisioner was not restarted: no opening call was answered with 202, so no work would have been in progress' });
        context.caseEnded?.();
        return;
      }
      await restartOnce(context, restart, timeoutMs);
      context.caseEnded?.();
    },
  };
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
