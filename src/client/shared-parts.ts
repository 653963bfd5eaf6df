import type { RecordedRequest, RecordedResponse, TransportError } from '../transcript/exchange.js';

/** Most distinct values each table holds; past it the table starts again, so a target that varies every answer costs no more than before. */
const TABLE_LIMIT = 4096;

type StoredBody = Omit<RecordedResponse, 'status' | 'headers'>;

/** A map that forgets everything once it holds {@link TABLE_LIMIT} entries: sharing is an economy, never a promise. */
class BoundedTable<V> {
  private readonly entries = new Map<string, V>();

  get(key: string, make: () => V): V {
    const known = this.entries.get(key);
    if (known !== undefined) return known;
    if (this.entries.size >= TABLE_LIMIT) this.entries.clear();
    const value = make();
    this.entries.set(key, value);
    return value;
  }
}

/**
 * Hands out one frozen object for equal request and response parts, so that exchanges repeating what an
 * earlier one sent or received share it: a poll of an operation sends the same request every time, and a
 * provisioner answers it with the same headers and body many times over.
 */
export class SharedParts {
  private readonly requestHeaders = new BoundedTable<Readonly<Record<string, string>>>();
  private readonly requests = new BoundedTable<RecordedRequest>();
  private readonly responses = new BoundedTable<RecordedResponse>();
  private readonly errors = new BoundedTable<TransportError>();
  /** The key of a headers object the caller sends again and again (it never changes one it has sent). */
  private readonly headerKeys = new WeakMap<Record<string, string>, string>();

  /** The request as sent; a request with a body is shared only when the caller passes the same body again. */
  request(method: RecordedRequest['method'], url: string, headers: Record<string, string>, body: string | undefined): RecordedRequest {
    let headersKey = this.headerKeys.get(headers);
    if (headersKey === undefined) {
      headersKey = JSON.stringify(headers);
      this.headerKeys.set(headers, headersKey);
    }
    const shared = this.requestHeaders.get(headersKey, () => Object.freeze({ ...headers }));
    if (body !== undefined) return Object.freeze({ method, url, headers: shared, body });
    return this.requests.get(`${method} ${url}\n${headersKey}`, () => Object.freeze({ method, url, headers: shared, body }));
  }

  /** The response: status, headers (as undici gave them) and the body store's stored body. */
  response(status: number, rawHeaders: Record<string, string | string[] | undefined>, body: StoredBody): RecordedResponse {
    const headers: Record<string, string> = {};
    // Each name and value is preceded by its length, so no text of theirs can make two header sets one key.
    let key = `${status}\n${body.truncated ? 'cut' : 'whole'}:${body.sha256 ?? ''}:${body.bodyBytes}\n`;
    for (const name of Object.keys(rawHeaders)) {
      const raw = rawHeaders[name];
      if (raw === undefined) continue;
      // Lower-case names; a repeated header's values joined with ", ".
      const lower = name.toLowerCase();
      const value = Array.isArray(raw) ? raw.join(', ') : raw;
      headers[lower] = value;
      key += `${lower.length}:${lower}${value.length}:${value}`;
    }
    return this.responses.get(key, () => Object.freeze({ status, headers: Object.freeze(headers), ...body }));
  }

  /** The transport error: one frozen object for each kind and message, which a target failing every read repeats. */
  error(error: TransportError): TransportError {
    return this.errors.get(`${error.kind}\n${error.message}`, () => Object.freeze({ ...error }));
  }
}
