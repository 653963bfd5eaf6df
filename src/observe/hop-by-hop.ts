import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';

/** Headers that belong to one connection, never forwarded by a proxy (RFC 9110, section 7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/**
 * The end-to-end headers of a message from its raw name/value list, names as they came: the hop-by-hop ones
 * and every header the Connection header names are left out; a repeated header keeps each of its values.
 */
export function endToEndHeaders(raw: readonly string[], leaveOut: readonly string[] = []): OutgoingHttpHeaders {
  const named = new Set<string>(leaveOut);
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() !== 'connection') continue;
    for (const token of raw[i + 1]!.split(',')) named.add(token.trim().toLowerCase());
  }
  const headers: Record<string, string | string[]> = {};
  const nameOf = new Map<string, string>();
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || named.has(lower)) continue;
    const value = raw[i + 1]!;
    const first = nameOf.get(lower);
    if (first === undefined) {
      nameOf.set(lower, name);
      headers[name] = value;
    } else {
      const known = headers[first]!;
      headers[first] = Array.isArray(known) ? [...known, value] : [known, value];
    }
  }
  return headers;
}

/** Headers as the transcript records them: lower-case names, a repeated header's values joined with ", ". */
export function recordedHeaders(headers: IncomingHttpHeaders | OutgoingHttpHeaders): Record<string, string> {
  const recorded: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    const text = Array.isArray(value) ? value.join(', ') : String(value);
    recorded[lower] = recorded[lower] === undefined ? text : `${recorded[lower]}, ${text}`;
  }
  return recorded;
}
