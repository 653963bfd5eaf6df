import { formatMs } from '../../core/duration.js';
import type { Transcript } from '../../transcript/transcript.js';
import { EndStates } from '../../transcript/end-states.js';
import { restartWindows } from '../../transcript/situations.js';
import { readsSurelyBeforeFinal, submissions } from '../../transcript/views.js';
import { neverChosen } from '../support/answer-ways.js';
import { broken, evidence, held, notApplicable, notExercised } from '../support/judgement.js';
import { plural } from '../../core/text.js';
import type { JudgeContext } from '../../core/judge-context.js';
import type { Evidence, Judgement, Rule } from '../types.js';

/** Said wherever the kit could not restart the provisioner: how to make it. */
export const RESTART_HINT = 'give --restart-command CMD to restart the provisioner during the run';

/**
 * durability.survives-restart: every operation accepted before a restart and still without a final answer
 * when it began is known afterwards (no 404) and reaches a final answer.
 */
function judgeSurvivesRestart(transcript: Transcript, context: JudgeContext): Judgement {
  const windows = restartWindows(transcript);
  if (windows.length === 0) {
    // A provisioner that answers every call at once has no work in progress for a restart to lose.
    const atOnce = neverChosen(transcript, 202, 'no operation could be in progress across a restart');
    if (atOnce !== undefined) return notApplicable(atOnce);
    const skipped = transcript.events.find((event) => event.type === 'restart-skipped');
    if (skipped?.type === 'restart-skipped') return notExercised(skipped.message);
    // Only run restarts the provisioner, at a moment it knows; observed traffic shows no restart.
    return notExercised(context.observed ? 'the traffic showed no restart of the provisioner' : `the provisioner was not restarted: ${RESTART_HINT}`);
  }
  const failed = windows.find((window) => !window.ok);
  if (failed) return notExercised(`the restart (${failed.describe}) did not succeed, so nothing can be said about what survives one: ${failed.message ?? 'it never ended'}`);
  const ends = new EndStates(transcript);
  // Work that never ends is the restart's fault only where the provisioner ends its accepted work otherwise:
  // a provisioner that never finishes an operation breaks operation.within-max-duration, not this rule. A 200
  // answered at once (as a full provisioner may) says nothing about whether its operations ever end.
  const endsOtherWork = ends.someOperationEnded();
  const faults: Evidence[] = [];
  let judged = 0;
  // Whatever suite sent it: the run restarts while its opening work is in progress.
  for (const post of submissions(transcript)) {
    const op = ends.operationOf(post);
    // The restart that followed this 202: the operation must have been accepted, and not yet ended, when it began.
    const window = windows.find((w) => w.startedAt >= post.endedAt);
    if (!op || !window || (op.firstFinalReceivedAt ?? Number.POSITIVE_INFINITY) <= window.startedAt) continue;
    const end = ends.of(post);
    if (!end.ended && end.unknown) continue;
    // A 404 counts only when it surely came before any final answer: a reader racing the final read may meet a provisioner that forgets at once.
    const lostReads = readsSurelyBeforeFinal(op).filter((read) => read.response?.status === 404);
    // Work lost before the restart began was not the restart's doing: operation.not-lost judges it.
    if (lostReads.some((read) => read.sentAt < window.startedAt)) continue;
    const lost = lostReads[0];
    if (!lost && !end.ended && !endsOtherWork) continue;
    judged++;
    if (lost) {
      const when = lost.sentAt >= window.endedAt ? `${formatMs(lost.sentAt - window.endedAt)} after the restart ended` : 'during the restart';
      faults.push(evidence(`${post.tag} ${post.changeSet ?? ''} accepted before the restart: its read ${when} answered 404`, lost, post));
    } else if (!end.ended) {
      // Stryker disable next-line Regex: the prefix only ever stands at the start of why
      faults.push(evidence(`${post.tag} ${post.changeSet ?? ''} accepted before the restart ${end.why.replace(/^answered 202, then /, 'then ')}`, post));
    }
  }
  if (judged === 0) {
    const atOnce = neverChosen(transcript, 202, 'no operation was in progress across the restart');
    if (atOnce !== undefined) return notApplicable(atOnce);
    return notExercised(
      endsOtherWork
        ? 'no operation was in progress when the provisioner was restarted (every call answered 200, or its work had ended)'
        : 'no operation of this run reached a final answer, restart or not, so what a restart does to them cannot be told apart',
    );
  }
  if (faults.length > 0) return broken(`${faults.length} of ${plural(judged, 'operation')} in progress across the restart did not survive it`, faults);
  return held(`${plural(judged, 'operation')} in progress across the restart ${judged === 1 ? 'was' : 'were'} still known afterwards and reached a final answer`);
}

export const durabilitySurvivesRestart: Rule = {
  id: 'durability.survives-restart',
  level: 'MUST',
  section: 'load',
  view: 'whole',
  timing: false,
  situations: ['restart'],
  judgedInCases: [],
  judgedAcrossTraffic: false,
  title: 'Operations survive a restart',
  sentence: 'An operation accepted before the provisioner restarts is still known afterwards and reaches a final answer.',
  judge: judgeSurvivesRestart,
};

/** The rules of this family, in the order reports show them: the rulebook lists the families in turn. */
export const RULES: readonly Rule[] = [durabilitySurvivesRestart];
