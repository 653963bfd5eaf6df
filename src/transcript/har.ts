import { createReadStream } from 'node:fs';
import type { SeenExchange } from './seen-exchange.js';

/** One HAR 1.2 entry as far as the kit reads it: the request, the response, and when. */
export interface HarEntry {
  startedDateTime: string;
  /** Total time of the exchange, ms. */
  time: number;
  request: { method: string; url: string; headers: HarHeader[]; postData?: { mimeType?: string; text?: string } };
  response: { status: number; headers: HarHeader[]; content: { size?: number; mimeType?: string; text?: string; encoding?: string }; _error?: string };
  timings?: { blocked?: number; dns?: number; connect?: number; ssl?: number; send?: number; wait?: number; receive?: number };
}

export interface HarHeader {
  name: string;
  value: string;
}

/** Where in the document the scanner stands: inside an object (with the key last read) or an array. */
interface Frame {
  kind: 'object' | 'array';
  key?: string;
  /** The array is log.entries: its object items are the entries. */
  entries?: boolean;
}

/**
 * Reads the entries of a HAR document as a stream: the text is scanned as it comes, and only the entry being
 * read is held, as text, until it is parsed and handed on. A file larger than memory can be read as long as
 * each of its entries fits. Throws on a document that is not JSON where the scanner reads it, or has no
 * log.entries array.
 */
export class HarEntryScanner {
  private readonly stack: Frame[] = [];
  private inString = false;
  private escaped = false;
  private stringText = '';
  /** The string just closed may be a key: it is one when a colon follows. */
  private pendingKey: string | undefined;
  private entryParts: string[] | undefined;
  private entryDepth = 0;
  private sawEntries = false;

  /** Feeds the next piece of the text; returns the entries completed in it, parsed. */
  push(text: string): unknown[] {
    const done: unknown[] = [];
    let entryStart = this.entryParts ? 0 : -1;
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if (this.inString) {
        if (this.entryParts === undefined) {
          if (this.escaped) this.escaped = false;
          else if (c === '\\') this.escaped = true;
          else if (c === '"') this.closeString();
          else if (this.stringText.length < 64) this.stringText += c;
        } else if (this.escaped) this.escaped = false;
        else if (c === '\\') this.escaped = true;
        else if (c === '"') this.inString = false;
        continue;
      }
      if (this.entryParts !== undefined) {
        if (c === '"') this.inString = true;
        else if (c === '{' || c === '[') this.entryDepth += 1;
        else if (c === '}' || c === ']') {
          this.entryDepth -= 1;
          if (this.entryDepth === 0) {
            this.entryParts.push(text.slice(entryStart, i + 1));
            done.push(JSON.parse(this.entryParts.join('')));
            this.entryParts = undefined;
            entryStart = -1;
          }
        }
        continue;
      }
      switch (c) {
        case '"':
          this.inString = true;
          this.stringText = '';
          break;
        case ':':
          if (this.pendingKey !== undefined) this.top()!.key = this.pendingKey;
          this.pendingKey = undefined;
          break;
        case '{': {
          const parent = this.top();
          if (parent?.entries) {
            this.entryParts = [];
            this.entryDepth = 1;
            entryStart = i;
            break;
          }
          this.stack.push({ kind: 'object' });
          break;
        }
        case '[': {
          const parent = this.top();
          const grand = this.stack[this.stack.length - 2];
          const entries = parent?.kind === 'object' && parent.key === 'entries' && grand?.kind === 'object' && grand.key === 'log' && this.stack.length === 2;
          if (entries) this.sawEntries = true;
          this.stack.push({ kind: 'array', entries });
          break;
        }
        case '}':
        case ']':
          this.stack.pop();
          break;
        case ',':
          this.pendingKey = undefined;
          break;
        default:
          break;
      }
    }
    if (this.entryParts !== undefined && entryStart >= 0) this.entryParts.push(text.slice(entryStart));
    return done;
  }

  /** Says whether the document had log.entries; throws when it ended inside an entry. */
  end(): void {
    if (this.entryParts !== undefined) throw new Error('the HAR file ends inside an entry');
    if (!this.sawEntries) throw new Error('no log.entries array: this is not a HAR file');
  }

  private top(): Frame | undefined {
    return this.stack[this.stack.length - 1];
  }

  private closeString(): void {
    this.inString = false;
    // A string read where a key may stand (in an object) is the key when a colon follows it.
    this.pendingKey = this.top()?.kind === 'object' ? this.stringText : undefined;
  }
}

/** Reads a HAR file entry by entry, without holding the file: each entry parsed once, then handed on. */
export async function* readHarEntries(path: string): AsyncGenerator<unknown> {
  const scanner = new HarEntryScanner();
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 256 * 1024 });
  for await (const chunk of stream) {
    for (const entry of scanner.push(chunk as string)) yield entry;
  }
  scanner.end();
}

function headerRecord(headers: unknown): Record<string, string> {
  const record: Record<string, string> = {};
  if (!Array.isArray(headers)) return record;
  for (const header of headers as unknown[]) {
    const { name, value } = (header ?? {}) as Partial<HarHeader>;
    if (typeof name !== 'string' || typeof value !== 'string') continue;
    // HTTP/2 pseudo-headers (:authority, :path) are no headers of the message.
    if (name.startsWith(':')) continue;
    const lower = name.toLowerCase();
    record[lower] = record[lower] === undefined ? value : `${record[lower]}, ${value}`;
  }
  return record;
}

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * One HAR entry as an exchange seen, its answer's body whole in one chunk, or why it cannot be one. A response status of 0 (how browsers and
 * proxies record a request that got no answer) is a transport error. A body given base64-encoded is decoded.
 */
export function harExchange(entry: unknown): SeenExchange | { problem: string } {
  const e = (entry ?? {}) as Partial<HarEntry>;
  const request = e.request;
  const response = e.response;
  if (typeof request?.method !== 'string' || typeof request.url !== 'string') return { problem: 'an entry has no request method and URL' };
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return { problem: `an entry's URL ${JSON.stringify(request.url.slice(0, 100))} is not absolute` };
  }
  const sentAt = Date.parse(String(e.startedDateTime));
  if (!Number.isFinite(sentAt)) return { problem: `an entry's startedDateTime ${JSON.stringify(e.startedDateTime)} is no date` };
  const time = finite(e.time) ?? 0;
  const timings = e.timings ?? {};
  const untilAnswer = ['blocked', 'dns', 'connect', 'send', 'wait'].reduce((sum, key) => sum + (finite((timings as Record<string, unknown>)[key]) ?? 0), 0);
  const base = {
    method: request.method.toUpperCase(),
    url: request.url,
    path: `${url.pathname}${url.search}`,
    requestHeaders: headerRecord(request.headers),
    ...(typeof request.postData?.text === 'string' && { requestBody: request.postData.text }),
    sentAt,
    endedAt: sentAt + time,
  };
  const status = typeof response?.status === 'number' ? response.status : 0;
  if (!response || status <= 0) {
    const why = typeof response?._error === 'string' ? response._error : 'the recording has no answer (status 0)';
    return { ...base, error: { kind: 'other', message: why } };
  }
  const content = response.content ?? {};
  const text = typeof content.text === 'string' ? content.text : '';
  const body = content.encoding === 'base64' ? Buffer.from(text, 'base64') : Buffer.from(text, 'utf8');
  return {
    ...base,
    respondedAt: sentAt + Math.min(untilAnswer > 0 ? untilAnswer : time, time),
    response: { status, headers: headerRecord(response.headers), chunks: [body], truncated: false },
  };
}
