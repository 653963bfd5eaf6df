import { MOST_OPERATION_DURATION } from '../../core/defaults.js';
import { formatMs, parseMaxOperationDuration } from '../../core/duration.js';
import { plural } from '../../core/text.js';
import { describeType, registrationBodyProblems } from '../../shapes/index.js';
import { isObject, submissions } from '../../transcript/views.js';
import { broken, evidence, held, notExercised, requestLabel } from '../support/judgement.js';
import type { Evidence, Rule } from '../types.js';

/** Rules about the registration document given with --registration. */

const NO_REGISTRATION = 'no --registration file was given';

export const registrationBody: Rule = {
  id: 'registration.body',
  level: 'MUST',
  section: 'registration',
  view: 'without-restart',
  timing: false,
  situations: ['registration'],
  judgedInCases: [],
  judgedAcrossTraffic: false,
  title: 'The registration document is complete',
  sentence: 'The registration has a non-empty string name, an absolute http or https url, and a non-empty types array of {kind, type} strings.',
  judge(_transcript, context) {
    const registration = context.registration;
    if (!registration) return notExercised(NO_REGISTRATION);
    const { file, json } = registration;
    if (!json.ok) return broken(`${file} is not JSON`, [evidence(`${file} does not parse as JSON: ${json.error}`)]);
    const doc = json.value;
    // The shapes say whether the document holds; a document that is no object is named here as a whole.
    const problems = registrationBodyProblems(doc);
    if (problems.length === 0) {
      return held(`${file} has a name, an absolute http(s) url and ${plural((doc as { types: unknown[] }).types.length, 'type')}`);
    }
    if (!isObject(doc)) return broken(`${file} is not a JSON object`, [evidence(`${file} holds ${describeType(doc)}, not a JSON object`)]);
    const notes: Evidence[] = problems.map((p) => evidence(`${file}: ${p}`));
    return broken(`${file} is incomplete: ${plural(problems.length, 'problem')}`, notes);
  },
};

export const registrationMaxOperationDuration: Rule = {
  id: 'registration.max-operation-duration',
  level: 'MUST',
  section: 'registration',
  view: 'without-restart',
  timing: false,
  situations: ['registration'],
  judgedInCases: [],
  judgedAcrossTraffic: false,
  title: 'maxOperationDuration is registered and valid',
  sentence:
    'maxOperationDuration, when present, is an ISO 8601 duration above zero and at most PT30M; a provisioner that answered 202 must register it.',
  judge(transcript, context) {
    const registration = context.registration;
    if (!registration) return notExercised(NO_REGISTRATION);
    const { file, json } = registration;
    if (!json.ok || !isObject(json.value)) {
      return notExercised(`${file} is not a JSON object, so maxOperationDuration could not be read (registration.body reports that)`);
    }
    const doc = json.value;
    if ('maxOperationDuration' in doc) {
      const parsed = parseMaxOperationDuration(doc.maxOperationDuration);
      if (!parsed.ok) {
        return broken(`${file} has an invalid maxOperationDuration`, [evidence(`${file}: maxOperationDuration: ${parsed.error}`)]);
      }
      return held(`${file} registers maxOperationDuration ${parsed.text} (${formatMs(parsed.ms)}): above zero and at most ${MOST_OPERATION_DURATION}`);
    }
    const firstAccepted = submissions(transcript).find((e) => e.response?.status === 202);
    if (firstAccepted) {
      return broken('the provisioner answered 202 but the registration has no maxOperationDuration: the control plane fails such work', [
        evidence(
          `${requestLabel(firstAccepted)} was answered 202, and ${file} has no maxOperationDuration to bound the wait`,
          firstAccepted,
        ),
      ]);
    }
    return held(`${file} has no maxOperationDuration; no 202 was answered, so none is needed`);
  },
};

/** The rules of this family, in the order reports show them: the rulebook lists the families in turn. */
export const RULES: readonly Rule[] = [registrationBody, registrationMaxOperationDuration];
