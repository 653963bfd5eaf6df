import type { ProxiedExchange } from './proxy.js';
import type { ObservedExchange } from './recorder.js';

/**
 * The most that may wait for the judges. Past either bound the judges have fallen behind, and further exchanges
 * are counted, not judged: a count alone would let a few thousand answers near the body limit hold gigabytes.
 */
export interface BacklogBounds {
  /** Exchanges waiting. */
  exchanges: number;
  /** Bytes the waiting exchanges hold: their bodies as kept for judging, their headers and URL. */
  bytes: number;
}

/** The bound an exchange was refused by. */
export type BacklogBound = keyof BacklogBounds;

/** What waits for the judges now. */
export interface Waiting {
  exchanges: number;
  bytes: number;
}

/** Decides which exchanges may wait for the judges, and counts those refused, per bound. */
export class JudgeBacklog {
  private readonly refused: Record<BacklogBound, number> = { exchanges: 0, bytes: 0 };

  constructor(readonly bounds: BacklogBounds) {}

  /**
   * The bound an exchange holding `bytes` would pass if it joined what is `waiting`, counted as refused by it;
   * undefined when it may wait. With nothing waiting, an exchange always may, however large: a byte bound below
   * one exchange would otherwise leave the judges nothing at all.
   */
  refuse(waiting: Waiting, bytes: number): BacklogBound | undefined {
    const bound: BacklogBound | undefined =
      waiting.exchanges >= this.bounds.exchanges ? 'exchanges' : waiting.exchanges > 0 && waiting.bytes + bytes > this.bounds.bytes ? 'bytes' : undefined;
    if (bound !== undefined) this.refused[bound] += 1;
    return bound;
  }

  /** Exchanges refused so far, per bound. */
  get dropped(): Readonly<Record<BacklogBound, number>> {
    return this.refused;
  }

  /** Why a bound refuses exchanges, as the failure that first leaves traffic unjudged says it. */
  reason(bound: BacklogBound): string {
    return bound === 'exchanges'
      ? `${this.bounds.exchanges.toLocaleString('en-US')} exchanges were waiting to be judged; further ones were not judged`
      : `the exchanges waiting to be judged held ${sizeOf(this.bounds.bytes)}, the most they may; further ones were not judged`;
  }

  /** What was not judged for the judges being behind, and which bound refused it; undefined when nothing was. */
  summary(): string | undefined {
    const { exchanges, bytes } = this.refused;
    if (exchanges + bytes === 0) return undefined;
    const parts = [
      ...(exchanges > 0 ? [`${exchanges} when ${this.bounds.exchanges.toLocaleString('en-US')} exchanges were waiting, the most that may wait`] : []),
      ...(bytes > 0 ? [`${bytes} when those waiting held ${sizeOf(this.bounds.bytes)}, the most they may hold (large bodies fill it with fewer exchanges)`] : []),
    ];
    return `${counted(exchanges + bytes)} passed on and not judged, the judges having fallen behind the traffic: ${parts.join('; ')}`;
  }
}

/** Bytes an exchange holds as the proxy hands it over: the bodies' bytes kept, headers and URL. */
export function proxiedBytes(proxied: ProxiedExchange): number {
  return proxied.url.length + headerBytes(proxied.requestHeaders) + proxied.requestBody.keptBytes + (proxied.responseHeaders ? headerBytes(proxied.responseHeaders) : 0) + (proxied.responseBody?.keptBytes ?? 0);
}

/** Bytes an exchange holds as recorded for the judges: its bodies decoded and kept, headers and URL. */
export function observedBytes(exchange: ObservedExchange): number {
  const { request, response } = exchange;
  return request.url.length + headerBytes(request.headers) + (request.body?.length ?? 0) + (response ? headerBytes(response.headers) + response.bodyBytes : 0);
}

function headerBytes(headers: Record<string, string>): number {
  let bytes = 0;
  for (const name in headers) bytes += name.length + headers[name]!.length;
  return bytes;
}

function counted(exchanges: number): string {
  return `${exchanges} ${exchanges === 1 ? 'exchange' : 'exchanges'}`;
}

/** A size as a person reads it: whole MiB or KiB when it is one, else bytes. */
export function sizeOf(bytes: number): string {
  const mib = 1024 * 1024;
  if (bytes >= mib && bytes % mib === 0) return `${bytes / mib} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
