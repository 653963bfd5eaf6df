import { decodeBody } from '../client/content-coding.js';
import { SharedParts } from '../client/shared-parts.js';
import { BodyStore } from '../transcript/body-store.js';
import type { Exchange, RecordedResponse } from '../transcript/exchange.js';
import type { SeenExchange } from '../transcript/seen-exchange.js';
import { classifyRequest } from './classify.js';

/** The suite name of every observed exchange: the control plane drove it, not a suite of the kit. */
export const OBSERVED_SUITE = 'observed';

export type { SeenExchange };

export type ObservedExchange = Omit<Exchange, 'seq'>;

/** Distinct bodies the store holds before it starts again: sharing equal bodies is an economy, never a promise. */
const BODIES_PER_STORE = 2048;

/**
 * Turns what was seen into the transcript's exchanges, as the kit records its own: bodies decoded from their
 * content coding and kept within the body store's bounds, tags from the request line, never a probe.
 * Requests that are not plan, apply or a read of an operation give nothing: they are not the contract's.
 */
export class ExchangeRecorder {
  private bodies = new BodyStore();
  private stored = 0;
  private readonly parts = new SharedParts();

  constructor(private readonly bodyLimitBytes: number) {}

  async record(seen: SeenExchange): Promise<ObservedExchange | undefined> {
    const kind = classifyRequest(seen.method, seen.path);
    if (!kind) return undefined;
    let response: RecordedResponse | undefined;
    if (seen.response) {
      const { chunks, truncated, status, headers } = seen.response;
      const encoding = headers['content-encoding'];
      const decoded = encoding === undefined ? undefined : await decodeBody(chunks, encoding, this.bodyLimitBytes);
      const body = decoded ? { chunks: decoded.chunks, truncated: truncated || decoded.truncated } : { chunks, truncated };
      if (++this.stored > BODIES_PER_STORE) {
        this.bodies = new BodyStore();
        this.stored = 1;
      }
      response = this.parts.response(status, headers, this.bodies.keepChunks(body.chunks, body.truncated));
    }
    const method = seen.method === 'POST' ? 'POST' : 'GET';
    return {
      suite: OBSERVED_SUITE,
      tag: kind.tag,
      probe: false,
      ...(kind.operationId !== undefined && { operationId: kind.operationId }),
      request: { method, url: seen.url, headers: seen.requestHeaders, ...(seen.requestBody !== undefined && { body: seen.requestBody }) },
      sentAt: seen.sentAt,
      ...(seen.respondedAt !== undefined && { respondedAt: seen.respondedAt }),
      endedAt: seen.endedAt,
      ...(response && { response }),
      ...(seen.error && { error: seen.error }),
    };
  }
}
