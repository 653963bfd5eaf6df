import { durationOfMs } from '../core/duration.js';
import type { JudgeContext } from '../core/judge-context.js';
import type { Observation } from '../core/observation.js';
import type { Millis } from '../core/time.js';
import type { Verdict } from '../core/verdict.js';
import { kitErrorVerdict } from '../errors.js';
import type { RuleResult } from '../rules/types.js';
import type { RunOutcome } from '../runner/outcome.js';
import { buildOutcome } from '../runner/build-outcome.js';
import { Transcript } from '../transcript/transcript.js';
import type { JudgeTally } from './streaming-judge.js';

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
  /** Traffic the kit failed to judge (a bug, a judge that fell far behind or stopped): the verdict is then an error, never a pass. */
  kitFailure?: string;
  /** Exchanges of the traffic the judges never saw whole (with `kitFailure`, which says the first cause). */
  unjudged?: number;
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

/** Statuses that say something of all the traffic: the traffic not judged could have broken the rule, or shown its other way. */
const ABOUT_ALL_TRAFFIC = new Set<RuleResult['status']>(['pass', 'not-applicable', 'not-exercised']);

/**
 * The rules when part of the traffic was not judged: none holds on traffic it did not see. A rule that held
 * (or was not applicable, or not exercised) on the traffic judged is not exercised on all of it, and says so;
 * what the judged traffic broke stays broken.
 */
function partlyJudged(rules: readonly RuleResult[], unjudged: string): RuleResult[] {
  return rules.map((rule) =>
    ABOUT_ALL_TRAFFIC.has(rule.status) ? { ...rule, status: 'not-exercised', message: `not judged on all of the traffic (${unjudged}); on the traffic judged: ${rule.status === 'pass' ? '' : `${rule.status}, `}${rule.message}`, evidence: [] } : rule,
  );
}

/** The outcome of an observation so far: the same shape as a run's, so every report writer serves it. */
export function observationOutcome(judge: JudgeTally, facts: ObservationFacts): RunOutcome {
  const unjudged =
    facts.kitFailure === undefined ? undefined : facts.unjudged ? `${facts.unjudged} ${facts.unjudged === 1 ? 'exchange' : 'exchanges'} of the traffic not judged` : 'part of the traffic not judged';
  const rules = unjudged === undefined ? judge.results : partlyJudged(judge.results, unjudged);
  const traffic = judge.traffic;
  const verdict = verdictFor(rules, facts.answered, facts.kitFailure !== undefined);
  const seen = `${traffic.exchanges} exchanges of the contract observed (${traffic.byTag.plan} plan, ${traffic.byTag.apply} apply, ${traffic.byTag.poll} reads); ${traffic.operations.accepted} operations accepted, ${traffic.operations.open} still open`;
  const conclusions = [
    ...(facts.kitFailure !== undefined
      ? [`kit error KIT_INTERNAL: ${unjudged} (the first cause: ${facts.kitFailure}); no rule is said to hold on traffic it did not see: those that held on the traffic judged are not-exercised; the traffic itself passed unchanged`]
      : []),
    ...rules.filter((rule) => rule.status === 'error').map((rule) => rule.message),
    ...facts.notes,
    seen,
    ...(verdict === 'unreachable' ? ['no request of the observed traffic was answered by the provisioner: nothing was judged'] : []),
    ...(facts.context.maxOperationDuration.source === 'default' && traffic.operations.accepted > 0
      ? [`no maxOperationDuration was given (--registration or --max-operation-duration): operations were held to ${facts.context.maxOperationDuration.text}, the most any registration may hold`]
      : []),
  ];
  return buildOutcome({
    target: { url: facts.url },
    startedAt: facts.startedAt,
    finishedAt: facts.finishedAt,
    verdict,
    rules,
    conclusions,
    operations: judge.conclusions,
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
      rules: judge.ruleCounts,
      ...(facts.recordingErrors && { recordingErrors: facts.recordingErrors }),
    },
    // The change sets of the kept evidence: the transcript written of it is judged again in this context.
    context: { ...facts.context, changeSets: judge.evidenceChangeSets },
    transcript: new Transcript(judge.evidence.exchanges, judge.evidence.events),
  });
}
