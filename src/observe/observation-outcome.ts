import { durationOfMs } from '../core/duration.js';
import type { JudgeContext } from '../core/judge-context.js';
import type { Observation } from '../core/observation.js';
import { kitIdentity } from '../core/package.js';
import type { Millis } from '../core/time.js';
import { EXIT_CODES, type Verdict } from '../core/verdict.js';
import { kitErrorVerdict } from '../errors.js';
import type { RuleResult } from '../rules/types.js';
import type { RunOutcome } from '../runner/outcome.js';
import { summarize } from '../runner/verdict.js';
import type { StreamingJudge } from './streaming-judge.js';

/** What an outcome of observed traffic says besides what the judge holds. */
export interface ObservationFacts {
  source: Observation['source'];
  /** The provisioner observed (observe) or the origin of the recording (verify --har). */
  url: string;
  startedAt: Millis;
  finishedAt: Millis;
  context: Omit<JudgeContext, 'changeSets'>;
  strict: boolean;
  showSecrets: boolean;
  changesPointer: string;
  /** Sentences about how the observation went, said first. */
  notes: string[];
  /** Exchanges whose answer came from the provisioner (not the observer's own 502). */
  answered: number;
  recordingErrors?: Observation['recordingErrors'];
  /** Traffic the kit failed to judge (a bug, or a judge that fell far behind): the verdict is then an error, never a pass. */
  kitFailure?: string;
}

/**
 * The verdict of observed traffic, as a run's: a rule the kit failed to judge is an error, traffic that never
 * reached the provisioner is unreachable, a failed MUST rule fails, else it passes. Rules the traffic never
 * exercised are not-exercised and say so; they neither pass nor fail it.
 */
function verdictFor(rules: readonly RuleResult[], answered: number, kitFailure: boolean): Verdict {
  if (kitFailure || rules.some((rule) => rule.status === 'error')) return kitErrorVerdict('KIT_INTERNAL');
  if (answered === 0) return kitErrorVerdict('KIT_TARGET_UNREACHABLE');
  return rules.some((rule) => rule.status === 'fail') ? 'fail' : 'pass';
}

/** The outcome of an observation so far: the same shape as a run's, so every report writer serves it. */
export function observationOutcome(judge: StreamingJudge, facts: ObservationFacts): RunOutcome {
  const rules = judge.results();
  const traffic = judge.traffic();
  const verdict = verdictFor(rules, facts.answered, facts.kitFailure !== undefined);
  const seen = `${traffic.exchanges} exchanges of the contract observed (${traffic.byTag.plan} plan, ${traffic.byTag.apply} apply, ${traffic.byTag.poll} reads); ${traffic.operations.accepted} operations accepted, ${traffic.operations.open} still open`;
  const conclusions = [
    ...(facts.kitFailure !== undefined ? [`kit error KIT_INTERNAL: part of the traffic was not judged (${facts.kitFailure}); the traffic itself passed unchanged`] : []),
    ...rules.filter((rule) => rule.status === 'error').map((rule) => rule.message),
    ...facts.notes,
    seen,
    ...(verdict === 'unreachable' ? ['no request of the observed traffic was answered by the provisioner: nothing was judged'] : []),
    ...(facts.context.maxOperationDuration.source === 'default' && traffic.operations.accepted > 0
      ? ['no maxOperationDuration was given (--registration or --max-operation-duration): operations were held to PT30M, the most any registration may hold']
      : []),
  ];
  return {
    kit: kitIdentity(),
    target: { url: facts.url },
    startedAt: facts.startedAt,
    finishedAt: facts.finishedAt,
    verdict,
    exitCode: EXIT_CODES[verdict],
    summary: summarize(rules),
    rules,
    conclusions,
    operations: judge.operationConclusions(),
    properties: [],
    settings: {
      pollInterval: durationOfMs(facts.context.pollIntervalMs),
      answerTimeout: durationOfMs(facts.context.answerTimeoutMs),
      maxOperationDuration: facts.context.maxOperationDuration,
      changesPointer: facts.changesPointer,
      planOnly: false,
      strict: facts.strict,
      showSecrets: facts.showSecrets,
      changeSets: [],
    },
    observation: {
      source: facts.source,
      traffic,
      rules: judge.ruleCounts(),
      ...(facts.recordingErrors && { recordingErrors: facts.recordingErrors }),
    },
    // The change sets of the kept evidence: the transcript written of it is judged again in this context.
    context: { ...facts.context, changeSets: judge.evidenceChangeSets() },
    transcript: judge.evidence,
  };
}
