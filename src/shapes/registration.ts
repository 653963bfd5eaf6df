import { registrationSchema } from './generated/schemas.js';
import { problemsOf } from './problems.js';
import { validators } from './validators.js';
import { describeType } from './words.js';

/** Why a url string is not an absolute http or https URL, in the words of registration.body. */
function urlSentence(url: string): string {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url)?.[1]?.toLowerCase();
  return scheme !== undefined && scheme !== 'http' && scheme !== 'https'
    ? `url ${JSON.stringify(url)} uses ${scheme}, not http or https`
    : `url ${JSON.stringify(url)} is not an absolute URL`;
}

/**
 * registration.body: what keeps a registration document from having a name, an absolute http(s) url and
 * types. maxOperationDuration is judged by registration.max-operation-duration, not here.
 */
export function registrationBodyProblems(value: unknown): string[] {
  return problemsOf(validators.registration, value, {
    schema: registrationSchema,
    keep: (_error, path) => path[0] !== 'maxOperationDuration',
    phrase: ({ path, keyword, value: field }) => {
      if (path.length === 0) return `the registration is ${describeType(field)}, not a JSON object`;
      if (path.length === 1 && path[0] === 'url' && keyword === 'pattern') return urlSentence(field as string);
      return undefined;
    },
  });
}
