import type { JsonParse } from '../transcript/exchange.js';

export const REDACTED = '[redacted]';

// Matches inside longer names too: dbPassword, client_secret, x-api-key, accessToken, privateKeyPem.
const SECRET_KEY = /pass(?:word|wd|phrase)|secret|token|api[-_ ]?key|authori[sz]ation|credential|private[-_ ]?key/i;

// Connection strings in outputs carry their password in the URL: scheme://user:password@host.
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/?#@]*:)[^\s/?#@]+@/gi;

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/** Free text with the passwords inside URLs redacted. */
export function redactText(text: string): string {
  return text.replace(URL_PASSWORD, `$1${REDACTED}@`);
}

/** A copy of a JSON value with the values under secret-looking keys, and passwords inside URLs, replaced by "[redacted]". */
export function redactJson(value: unknown): unknown {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) return value.map(redactJson);
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    // null and "" hide nothing, and seeing them helps tell an empty secret from a missing one.
    const hidesNothing = inner === null || inner === '';
    const redacted = isSecretKey(key) && !hidesNothing ? REDACTED : redactJson(inner);
    // defineProperty, not assignment: a body may carry a "__proto__" key, which must stay a plain key.
    Object.defineProperty(copy, key, { value: redacted, enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);

export function isSecretHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return SECRET_HEADERS.has(lower) || /token|secret|api-?key|password/.test(lower);
}

/** A copy of the headers with the values of credential-carrying headers replaced by "[redacted]". */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const copy: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) copy[name] = isSecretHeader(name) ? REDACTED : value;
  return copy;
}

/**
 * A body text with its secrets redacted: by key when it is JSON, passwords inside URLs otherwise.
 * A JSON text is returned untouched when nothing needed hiding, so that reports show the bytes as they came.
 */
export function redactBodyText(text: string, json?: JsonParse): string {
  let parsed: JsonParse | undefined = json;
  if (parsed === undefined) {
    try {
      parsed = { ok: true, value: JSON.parse(text) as unknown };
    } catch {
      return redactText(text);
    }
  }
  if (!parsed.ok) return redactText(text);
  try {
    const original = JSON.stringify(parsed.value);
    const redacted = JSON.stringify(redactJson(parsed.value));
    return redacted === original ? text : redacted;
  } catch (error) {
    // JSON nested thousands deep (a bad-input probe, or a hostile answer) is too deep to walk: show it as text.
    if (error instanceof RangeError) return redactText(text);
    throw error;
  }
}
