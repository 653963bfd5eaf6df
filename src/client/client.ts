import { Agent, request, type Dispatcher } from 'undici';
import { DEFAULTS } from '../core/defaults.js';
import type { Exchange, ExchangeTag, RecordedResponse } from '../transcript/exchange.js';
import type { Transcript } from '../transcript/transcript.js';
import { classifyTransportError } from './transport-error.js';
import { now } from './clock.js';
import { BodyStore, type StoredBody } from '../transcript/body-store.js';
import { SharedParts } from './shared-parts.js';
import { decodeBody } from './content-coding.js';
import { sharedLookup } from './shared-lookup.js';
import { SendSlots } from './send-slots.js';
import { pacedConnector } from './paced-reads.js';
import { CutBody, passesLimit } from './cut-body.js';
import { readLimited } from './body-read.js';
import { COLLECTION_SCHEDULE } from './collection-schedule.js';
import { ExchangeTimer } from './exchange-timer.js';
import { LONG_READ_TURNS, type LongReadTurns } from './long-read-turns.js';
import { KEEP_WHOLE_BYTES } from '../transcript/body-store.js';

export interface ClientOptions {
  /** The provisioner's base URL; paths are appended to it. */
  baseUrl: string;
  /** Extra headers sent with every request (for example authentication). */
  headers?: Record<string, string>;
  transcript: Transcript;
  /** Most connections open to the provisioner at once. */
  connections?: number;
  /** Bytes of a response body kept (default: the defaults table's `bodyLimitBytes`); the rest is dropped and the body marked truncated. */
  bodyLimitBytes?: number;
  /** Hears each call as it is sent and as it ends (the runner's watch over its first wave). */
  watch?: CallWatch;
  /** Turns for reads that hold more than 64 KiB of a body; the process's own unless given. */
  longReadTurns?: LongReadTurns;
}

/** What hears of every call: sent, then ended with its recorded exchange. */
export interface CallWatch {
  sent(): void;
  end(exchange: Exchange): void;
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

/** HTTP client that records every exchange, never throws for what the provisioner does, and bounds time and size. */
export class ProvisionerClient {
  private readonly agent: Agent;
  private readonly slots: SendSlots;
  private readonly baseUrl: string;
  private readonly bodyLimit: number;
  private readonly bodies = new BodyStore();
  private readonly parts = new SharedParts();
  private readonly inFlight = new WeakMap<AbortSignal, Set<ExchangeStop>>();
  private readonly turns: LongReadTurns;
  /** The headers of a request without a body, and of one with a JSON body, the user's lower-cased: made once, never changed. */
  private readonly readHeaders: Record<string, string>;
  private readonly bodyHeaders: Record<string, string>;

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.bodyLimit = options.bodyLimitBytes ?? DEFAULTS.bodyLimitBytes;
    this.readHeaders = { accept: 'application/json', ...lowerCaseKeys(options.headers ?? {}) };
    this.bodyHeaders = { ...this.readHeaders, 'content-type': 'application/json' };
    const connections = options.connections ?? 16;
    this.agent = new Agent({ connections, keepAliveTimeout: 4000, connect: pacedConnector({ lookup: sharedLookup() }) });
    this.slots = new SendSlots(connections);
    this.turns = options.longReadTurns ?? LONG_READ_TURNS;
  }

  get transcript(): Transcript {
    return this.options.transcript;
  }

  urlFor(path: string): string {
    return `${this.baseUrl}${path}`;
  }

  async send(options: SendOptions): Promise<Exchange> {
    // The call's clock starts once a connection is free for it: the kit's own queue is not the provisioner's time.
    return this.sendHolding(options, this.slots.tryTake() ?? (await this.slots.take()));
  }

  /**
   * Sends calls at the same moment: they wait until there is a free connection for each of them (as many as the
   * client has, the rest one by one as connections free up), so that the kit's own queue never spreads out reads
   * meant to reach the provisioner together.
   */
  async sendTogether(calls: readonly SendOptions[]): Promise<Exchange[]> {
    if (calls.length === 0) return [];
    const slots = await this.slots.takeTogether(calls.length);
    return Promise.all(calls.map((options, i) => (i < slots.length ? this.sendHolding(options, slots[i]!) : this.send(options))));
  }

  /** Sends one call on a connection slot already taken, and gives the slot back once the exchange has ended. */
  private async sendHolding(options: SendOptions, giveBack: () => void): Promise<Exchange> {
    const url = this.urlFor(options.path);
    const headers = options.body === undefined ? this.readHeaders : this.bodyHeaders;
    const cut = new ExchangeStop();
    let timedOut = false;
    const timer = new ExchangeTimer(options.timeoutMs, () => {
      timedOut = true;
      cut.abort();
    });
    const runStops = options.signal === undefined ? undefined : this.stopsOf(options.signal);
    if (options.signal?.aborted) cut.abort();
    else runStops?.add(cut);
    const sentAt = now();
    this.options.watch?.sent();
    let respondedAt: number | undefined;
    let response: RecordedResponse | undefined;
    let error: Exchange['error'];
    try {
      const answer = await request(url, {
        dispatcher: this.agent,
        method: options.method,
        headers,
        body: options.body,
        // undici takes any EventTarget as a signal: it reads `aborted` and `reason` and adds one 'abort' listener.
        signal: cut as unknown as AbortSignal,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      });
      respondedAt = now();
      response = this.parts.response(answer.statusCode, answer.headers, await this.readBody(answer, timer));
    } catch (thrown) {
      const aborted = options.signal?.aborted === true;
      error = this.parts.error(
        aborted ? { kind: 'stopped', message: 'the run was stopped before an answer came' } : classifyTransportError(thrown, timedOut, options.timeoutMs),
      );
    } finally {
      timer.clear();
      runStops?.delete(cut);
      giveBack();
    }
    const recorded = this.transcript.record({
      suite: options.suite,
      tag: options.tag,
      probe: options.probe,
      changeSet: options.changeSet,
      operationId: options.operationId,
      repeatOf: options.repeatOf,
      request: this.parts.request(options.method, url, headers, options.body),
      sentAt,
      respondedAt,
      endedAt: now(),
      response,
      error,
    });
    this.options.watch?.end(recorded);
    COLLECTION_SCHEDULE.exchangeEnded();
    return recorded;
  }

  /** The answer's body, read up to the limit and stored. */
  private async readBody(answer: Dispatcher.ResponseData, timer: ExchangeTimer): Promise<StoredBody> {
    // A body its length says is past the limit is never held whole: some 70 reads may be in flight at once.
    if (passesLimit(answer.statusCode, answer.headers, this.bodyLimit)) {
      const cut = new CutBody(this.bodyLimit);
      await readLimited(answer.body, this.bodyLimit, (chunk) => cut.add(chunk));
      if (!cut.full) throw new Error(`the body ended before the ${this.bodyLimit} bytes its Content-Length promised`);
      return this.bodies.keepCut(cut, cut.sha256());
    }
    const read: Buffer[] = [];
    const turn = this.turns.turn();
    // The wait for a turn is the kit's, so the exchange's clock is held meanwhile.
    const gate = {
      freeBytes: KEEP_WHOLE_BYTES,
      ask: (): Promise<void> | undefined => {
        const wait = turn.ask();
        if (wait === undefined) return undefined;
        timer.hold();
        return wait.then(() => timer.resume());
      },
    };
    try {
      const readTruncated = await readLimited(answer.body, this.bodyLimit, (chunk) => read.push(chunk), gate);
      // A compressed body is judged as the control plane's client would read it: decoded, within the same limit.
      const encoding = answer.headers['content-encoding'];
      const decoded = encoding === undefined ? undefined : await decodeBody(read, String(encoding), this.bodyLimit);
      return decoded ? this.bodies.keepChunks(decoded.chunks, readTruncated || decoded.truncated) : this.bodies.keepChunks(read, readTruncated);
    } finally {
      // Stored (a long body as its head and tail only): the chunks are garbage from here on.
      turn.end();
    }
  }

  /** The exchanges in flight under a run-wide signal: one listener on it stops them all, not one listener each. */
  private stopsOf(signal: AbortSignal): Set<ExchangeStop> {
    let stops = this.inFlight.get(signal);
    if (!stops) {
      const created = new Set<ExchangeStop>();
      signal.addEventListener('abort', () => {
        for (const stop of created) stop.abort();
      }, { once: true });
      this.inFlight.set(signal, created);
      stops = created;
    }
    return stops;
  }

  async close(): Promise<void> {
    await this.agent.destroy();
  }
}

/**
 * What undici reads of a signal, for one exchange: `aborted`, `reason` and its one 'abort' listener. An
 * AbortController and its AbortSignal (an EventTarget) per request cost several times as much.
 */
class ExchangeStop {
  aborted = false;
  reason: unknown = undefined;
  private listener: (() => void) | undefined = undefined;

  addEventListener(_type: 'abort', listener: () => void): void {
    this.listener = listener;
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    if (this.listener === listener) this.listener = undefined;
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = new DOMException('This operation was aborted', 'AbortError');
    const listener = this.listener;
    this.listener = undefined;
    listener?.();
  }
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
