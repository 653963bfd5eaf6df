import type { ErrorObject } from 'ajv';
import { registrationSchema } from './generated/schemas.js';
import { problemsOf } from './problems.js';
import { validators } from './validators.js';
import { describeType } from './words.js';

/** The keyword of the second step's error: the url matched the schema's pattern, yet no URL parser takes it. */
const UNPARSABLE = 'parse';

function notAbsolute(url: string): string {
  return `url ${JSON.stringify(url)} is not an absolute URL`;
}

/** Why a url string is not an absolute http or https URL, in the words of registration.body. */
function urlSentence(url: string): string {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url)?.[1]?.toLowerCase();
  return scheme !== undefined && scheme !== 'http' && scheme !== 'https' ? `url ${JSON.stringify(url)} uses ${scheme}, not http or https` : notAbsolute(url);
}

/**
 * The pattern checks the form of a URL, not its values: a port above 65535 or a host such as 999.1.1.1 has
 * the form yet is no URL. A url the schema finds nothing wrong with must also parse.
 */
function unparsableUrl(value: unknown, errors: readonly ErrorObject[]): ErrorObject[] {
  const url = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as { url?: unknown }).url : undefined;
  if (typeof url !== 'string' || errors.some((error) => error.instancePath === '/url') || URL.canParse(url)) return [];
  return [{ keyword: UNPARSABLE, instancePath: '/url', schemaPath: '#/properties/url', params: {}, message: 'does not parse as a URL' }];
}

/**
 * registration.body: what keeps a registration document from having a name, an absolute http(s) url and
 * types. The schema is the first step, a URL parser the second. maxOperationDuration is judged by
 * registration.max-operation-duration, not here.
 */
export function registrationBodyProblems(value: unknown): string[] {
  return problemsOf(validators.registration, value, {
    schema: registrationSchema,
    keep: (_error, path) => path[0] !== 'maxOperationDuration',
    after: unparsableUrl,
    phrase: ({ path, keyword, value: field }) => {
      if (path.length === 0) return `the registration is ${describeType(field)}, not a JSON object`;
      if (path.length !== 1 || path[0] !== 'url') return undefined;
      if (keyword === 'pattern') return urlSentence(field as string);
      return keyword === UNPARSABLE ? notAbsolute(field as string) : undefined;
    },
  });
}
