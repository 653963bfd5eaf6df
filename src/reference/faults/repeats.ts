import { randomBytes } from 'node:crypto';
import { defineFault } from '../fault.js';
import type { ChangeResult } from '../outcomes.js';
import { failedResult } from '../outcomes.js';
import { errorReply } from '../responses.js';

/** The faults of the reference that are about the rules of `src/rules/catalog/repeats.ts`: repeated calls. */

const freshSecretOutputs = defineFault({
  name: 'fresh-secret-outputs',
  breaks: ['apply.idempotent', 'apply.repeat-while-running'],
  needs: { modes: ['mixed'] },
  summary: 'Every apply rotates the secret: outputs carry a fresh vault URL each time, so applying again changes them.',
  finalAnswer: (answer, call) =>
    call.kind !== 'apply'
      ? answer
      : {
          ...answer,
          results: answer.results.map((result) =>
            result.outputs === undefined
              ? result
              : {
                  ...result,
                  outputs: {
                    ...result.outputs,
                    password: `vault://reference/${encodeURIComponent(result.environment)}/${encodeURIComponent(result.id)}-password-${randomBytes(6).toString('hex')}`,
                  },
                },
          ),
        },
});

const updatedNewOutputs = defineFault({
  name: 'updated-new-outputs',
  breaks: ['apply.idempotent', 'apply.repeat-while-running'],
  // Only updated changes: change sets that only create, as the guide's examples do, never show it.
  needs: { modes: ['mixed'] },
  summary: 'Every apply of an updated change reports a new revision in its outputs, as if the update were made anew each time.',
  // Results come in the order of the changes, so the change behind each result is the one at its index.
  finalAnswer: (answer, call) =>
    call.kind !== 'apply'
      ? answer
      : {
          ...answer,
          results: answer.results.map((result, index) =>
            call.changeSet.changes[index]?.action === 'updated' ? { ...result, outputs: { ...result.outputs, revision: randomBytes(4).toString('hex') } } : result,
          ),
        },
});

/** The fewest changes an apply has for the fault to show: a set of one change is handled alone. */
const BATCH = 2;

const batchNewOutputs = defineFault({
  name: 'batch-new-outputs',
  breaks: ['apply.idempotent', 'apply.repeat-while-running'],
  // Only sets of several changes: change sets of one change, as the guide's examples are, never show it.
  needs: { modes: ['mixed'] },
  summary: 'An apply of two or more changes puts the id of its batch job, new for each apply, into the outputs of every change.',
  finalAnswer: (answer, call) => {
    if (call.kind !== 'apply' || call.changeSet.changes.length < BATCH) return answer;
    const batch = `batch-${randomBytes(4).toString('hex')}`;
    return { ...answer, results: answer.results.map((result) => ({ ...result, outputs: { ...result.outputs, batch } })) };
  },
});

const status409OnRepeat = defineFault({
  name: 'status-409-on-repeat',
  breaks: ['apply.idempotent'],
  // Model-based runs apply the bundled change sets again at random; their 409s would break answer.status in
  // some runs and not in others. The generated plans alone keep the row the same every time, and two
  // seconds of work keep the repeat sent right after the 202 a repeat while running on a loaded machine.
  needs: { modes: ['mixed'], flags: ['--property', 'property/generated-plans', '--reference-work', 'PT2S'] },
  summary: 'An apply of a change set whose earlier apply has ended answers 409 "already applied".',
  refuseCall: (call) => (call.kind === 'apply' && call.earlier.ended > 0 ? errorReply(409, 'this change set was already applied') : undefined),
});

const alreadyRunning = defineFault({
  name: 'already-running',
  breaks: ['apply.repeat-while-running'],
  // Two seconds of work: the repeat is sent right after the 202, and must find the first still running even on a loaded machine.
  needs: { modes: ['async'], flags: ['--reference-work', 'PT2S'] },
  summary: 'An apply sent again while an apply of the same change set is in progress ends failed: "already running".',
  finalAnswer: (answer, call) => {
    if (call.kind !== 'apply' || call.earlier.running === 0) return answer;
    const results: ChangeResult[] = call.changeSet.changes.map(({ id, environment }) => ({
      id,
      environment,
      outcome: 'failed',
      description: `Not applied: an apply of ${id} in ${environment} is already running.`,
    }));
    return { outcome: 'failed', description: 'An apply of this change set is already running.', results };
  },
});

const driftingPlan = defineFault({
  name: 'drifting-plan',
  breaks: ['plan.repeatable'],
  needs: { modes: ['mixed'] },
  summary: 'Every plan of a change set after its first says its first change failed (and so the plan failed).',
  finalAnswer: (answer, call) => {
    if (call.kind !== 'plan' || call.earlier.running + call.earlier.ended === 0) return answer;
    // The overall outcome follows the results, so that only the repeat rule is broken.
    const [, ...rest] = answer.results;
    return { ...answer, outcome: 'failed', results: [failedResult('plan', call.changeSet.changes[0]!), ...rest] };
  },
});

const removedPlanDrift = defineFault({
  name: 'removed-plan-drift',
  breaks: ['plan.repeatable'],
  // Only removed changes: change sets that only create, as the guide's examples do, never show it.
  needs: { modes: ['mixed'] },
  summary: 'Plans of a change set take turns between two replicas, and the one behind says the removed changes cannot be found (so every second plan fails).',
  finalAnswer: (answer, call) => {
    // Every second plan of the same change set: two plans in a row always disagree, whatever came before them.
    if (call.kind !== 'plan' || (call.earlier.running + call.earlier.ended) % 2 === 0) return answer;
    const removed = new Set(call.changeSet.changes.flatMap((change, index) => (change.action === 'removed' ? [index] : [])));
    if (removed.size === 0) return answer;
    // Results come in the order of the changes; the overall outcome follows them, so that only the repeat rule is broken.
    const results = answer.results.map((result, index) => (removed.has(index) ? failedResult('plan', call.changeSet.changes[index]!) : result));
    return { ...answer, outcome: 'failed', results };
  },
});

/** This family's faults, in the order listings show them: the list of faults takes the families in turn. */
export const FAULTS = [freshSecretOutputs, updatedNewOutputs, batchNewOutputs, status409OnRepeat, alreadyRunning, driftingPlan, removedPlanDrift] as const;
