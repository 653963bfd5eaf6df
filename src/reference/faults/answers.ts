import { defineFault } from '../fault.js';
import { hasPunctuation } from '../input-limits.js';
import { errorReply, TEXT_TYPE } from '../responses.js';

/** The faults of the reference that are about the rules of `src/rules/catalog/answers.ts`: plan and apply answers. */

const status409OnApply = defineFault({
  name: 'status-409-on-apply',
  breaks: ['answer.status'],
  needs: { modes: ['async'] },
  summary: 'POST /apply answers 409 with a JSON error.',
  refuseCall: (call) => (call.kind === 'apply' ? errorReply(409, 'another apply holds the lock for this application and environment') : undefined),
});

const textPlainAnswers = defineFault({
  name: 'text-plain-answers',
  breaks: ['answer.json'],
  needs: { modes: ['mixed'] },
  summary: '200 and 202 answers to POST are labelled text/plain (the body is still JSON).',
  postAnswer: (answer) => ({ ...answer, contentType: TEXT_TYPE }),
});

const slowAnswers = defineFault({
  name: 'slow-answers',
  breaks: ['answer.prompt'],
  // Reads must answer within the answer timeout too: a second leaves a loaded test machine room for them, while the
  // POSTs held 1.5 s (slowAnswerMs) are always late.
  needs: { modes: ['mixed'], flags: ['--answer-timeout', 'PT1S'] },
  summary: 'Answers to POST are held for slowAnswerMs before they are sent.',
  postDelayMs: (options) => options.slowAnswerMs,
});

const punctuationEnvironment500 = defineFault({
  name: 'punctuation-environment-500',
  breaks: ['answer.status'],
  // The bundled change sets use the environment "test": only generated input finds it.
  needs: { modes: ['mixed'], property: { name: 'property/generated-plans', seed: 1 } },
  summary: 'Plan and apply answer 500 when a change\'s environment holds punctuation other than "-".',
  refuseCall: (call) =>
    call.changeSet.changes.some((change) => hasPunctuation(change.environment))
      ? errorReply(500, 'internal error: could not derive a namespace from the environment')
      : undefined,
});

const missingProperties500 = defineFault({
  name: 'missing-properties-500',
  breaks: ['answer.status'],
  // The bundled change sets all carry a properties field: only generated input finds it.
  needs: { modes: ['mixed'], property: { name: 'property/generated-plans', seed: 1 } },
  summary: 'Plan and apply answer 500 when a change has no properties field (code that reads properties.size).',
  refuseCall: (call) =>
    call.changeSet.changes.some((change) => change.properties === undefined)
      ? errorReply(500, "internal error: cannot read properties of undefined (reading 'size')")
      : undefined,
});

/** This family's faults, in the order listings show them: the list of faults takes the families in turn. */
export const FAULTS = [status409OnApply, textPlainAnswers, slowAnswers, punctuationEnvironment500, missingProperties500] as const;
