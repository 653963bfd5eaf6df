import { Agent, request } from 'undici';
import type { Exchange, ExchangeTag, RecordedResponse } from '../transcript/exchange.js';
import type { Transcript } from '../transcript/transcript.js';
import { classifyTransportError } from './transport-error.js';
import { now } from './clock.js';
import { BodyStore } from '../transcript/body-store.js';

export interface ClientOptions {
  /** The provisioner's base URL; paths are appended to it. */
  baseUrl: string;
  /** Extra headers sent with every request (for example authentication). */
  headers?: Record<string, string>;
  transcript: Transcript;
  /** Most connections open to the provisioner at once. */
  connections?: number;
  /** Bytes of a response body kept; the rest is dropped and the body marked truncated. */
  bodyLimitBytes?: number;
}

export interface SendOptions {
  suite: string;
  tag: ExchangeTag;
  probe: boolean;
  method: 'GET' | 'POST';
  /** Path below the base URL, already encoded, e.g. `/operations/abc`. */
  path: string;
  body?: string;
  changeSet?: string;
  operationId?: string;
  /** The seq of the POST this one repeats byte for byte (repeat suites). */
  repeatOf?: number;
  /** The whole exchange, headers and body, must end within this. */
  timeoutMs: number;
  signal?: AbortSignal;
}

const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** HTTP client that records every exchange, never throws for what the provisioner does, and bounds time and size. */
export class ProvisionerClient {
  private readonly agent: Agent;
  private readonly baseUrl: string;
  private readonly bodyLimit: number;
  private readonly bodies = new BodyStore();

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.bodyLimit = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT;
    this.agent = new Agent({ connections: options.connections ?? 16, keepAliveTimeout: 4000 });
  }

  get transcript(): Transcript {
    return this.options.transcript;
  }

  urlFor(path: string): string {
    return `${this.baseUrl}${path}`;
  }

  async send(options: SendOptions): Promise<Exchange> {
    const url = this.urlFor(options.path);
    const headers: Record<string, string> = { accept: 'application/json', ...lowerCaseKeys(this.options.headers ?? {}) };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
    const sentAt = now();
    let respondedAt: number | undefined;
    let response: RecordedResponse | undefined;
    let error: Exchange['error'];
    try {
      const answer = await request(url, {
        dispatcher: this.agent,
        method: options.method,
        headers,
        body: options.body,
        signal,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      });
      respondedAt = now();
      const { bytes, truncated } = await readLimited(answer.body, this.bodyLimit);
      response = { status: answer.statusCode, headers: flattenHeaders(answer.headers), ...this.bodies.keep(bytes, truncated) };
    } catch (thrown) {
      const aborted = options.signal?.aborted === true;
      error = aborted
        ? { kind: 'stopped', message: 'the run was stopped before an answer came' }
        : classifyTransportError(thrown, timeout.aborted, options.timeoutMs);
    }
    return this.transcript.record({
      suite: options.suite,
      tag: options.tag,
      probe: options.probe,
      changeSet: options.changeSet,
      operationId: options.operationId,
      ...(options.repeatOf === undefined ? {} : { repeatOf: options.repeatOf }),
      request: { method: options.method, url, headers, body: options.body },
      sentAt,
      respondedAt,
      endedAt: now(),
      ...(response ? { response } : { error }),
    });
  }

  async close(): Promise<void> {
    await this.agent.destroy();
  }
}

async function readLimited(body: AsyncIterable<Uint8Array> & { destroy(): unknown }, limit: number): Promise<{ bytes: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  let truncated = false;
  for await (const chunk of body) {
    const buffer = Buffer.from(chunk);
    if (bytes + buffer.length > limit) {
      chunks.push(buffer.subarray(0, limit - bytes));
      bytes = limit;
      truncated = true;
      body.destroy();
      break;
    }
    chunks.push(buffer);
    bytes += buffer.length;
  }
  return { bytes: Buffer.concat(chunks), truncated };
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
