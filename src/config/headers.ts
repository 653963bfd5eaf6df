import { UsageError } from '../errors.js';

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Parses repeated `--header "Name: value"` flags. */
export function parseHeaders(values: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const value of values) {
    const colon = value.indexOf(':');
    const name = colon > 0 ? value.slice(0, colon).trim() : '';
    if (!TOKEN.test(name)) throw new UsageError('--header', `"${value}" is not of the form "Name: value"`);
    if (/[\r\n]/.test(value)) throw new UsageError('--header', `the value of ${name} holds a line break`);
    headers[name.toLowerCase()] = value.slice(colon + 1).trim();
  }
  return headers;
}
