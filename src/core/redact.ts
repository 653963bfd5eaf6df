/** Secrets in text and JSON: which keys and headers look secret, and how their values are hidden. Every layer that shows a value uses it. */
import type { JsonParse } from './json.js';

export const REDACTED = '[redacted]';

// Matches inside longer names too: dbPassword, client_secret, x-api-key, accessToken, privateKeyPem.
const SECRET_KEY = /pass(?:word|wd|phrase)|secret|token|api[-_ ]?key|authori[sz]ation|credential|private[-_ ]?key/i;

// Connection strings in outputs carry their password in the URL: scheme://user:password@host.
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/?#@]*:)([^\s/?#@]+)@/gi;

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/** What a secret value is replaced by: always "[redacted]", or one placeholder per distinct value. */
export type Mask = (secret: string) => string;

const PLAIN: Mask = () => REDACTED;

/**
 * A mask that keeps which secrets were equal: each distinct value gets its own numbered placeholder. A
 * transcript masked with it is judged again to the same verdicts, e.g. a secret that changed on a repeat.
 */
export function numberedMask(): Mask {
  const numbers = new Map<string, number>();
  return (secret) => {
    let number = numbers.get(secret);
    if (number === undefined) numbers.set(secret, (number = numbers.size + 1));
    return `[redacted #${number}]`;
  };
}

/** Free text with the passwords inside URLs redacted. */
export function redactText(text: string, mask: Mask = PLAIN): string {
  return text.replace(URL_PASSWORD, (_match, prefix: string, secret: string) => `${prefix}${mask(secret)}@`);
}

// "key": "value" in free text, as a provisioner's JSON reads when a message quotes it.
const KEYED_STRING = /"([^"\\\n]{1,200})"(\s*:\s*)"((?:[^"\\\n]|\\.)*)"/g;

/** Free text with the string values under secret-looking keys of the JSON it quotes redacted, and passwords inside URLs. */
export function redactQuotedJson(text: string, mask: Mask = PLAIN): string {
  const keyed = text.replace(KEYED_STRING, (match, key: string, colon: string, value: string) =>
    isSecretKey(key) && value !== '' ? `"${key}"${colon}"${mask(value)}"` : match,
  );
  return redactText(keyed, mask);
}

/** A copy of a JSON value with the values under secret-looking keys, and passwords inside URLs, replaced by "[redacted]". */
export function redactJson(value: unknown, mask: Mask = PLAIN): unknown {
  if (typeof value === 'string') return redactText(value, mask);
  if (Array.isArray(value)) return value.map((item) => redactJson(item, mask));
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    // null and "" hide nothing, and seeing them helps tell an empty secret from a missing one.
    const hidesNothing = inner === null || inner === '';
    // A string is known by its own text, as the run's secret mask knows it: one secret, one placeholder.
    const secret = typeof inner === 'string' ? inner : JSON.stringify(inner);
    const redacted = isSecretKey(key) && !hidesNothing ? mask(secret) : redactJson(inner, mask);
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
export function redactBodyText(text: string, json?: JsonParse, mask: Mask = PLAIN): string {
  let parsed: JsonParse | undefined = json;
  if (parsed === undefined) {
    try {
      parsed = { ok: true, value: JSON.parse(text) as unknown };
    } catch {
      return redactText(text, mask);
    }
  }
  if (!parsed.ok) return redactText(text, mask);
  try {
    const original = JSON.stringify(parsed.value);
    const redacted = JSON.stringify(redactJson(parsed.value, mask));
    return redacted === original ? text : redacted;
  } catch (error) {
    // JSON nested thousands deep (a bad-input probe, or a hostile answer) is too deep to walk: show it as text.
    if (error instanceof RangeError) return redactText(text, mask);
    throw error;
  }
}
