import type { Millis, TransportError } from './exchange.js';

/**
 * An exchange seen on the wire (the observer's proxy) or read from a recording (a HAR entry), before it is
 * classified and numbered: the answer's body as the bytes kept of it, in the chunks they came in.
 */
export interface SeenExchange {
  method: string;
  url: string;
  /** The path and query the control plane asked for. */
  path: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  sentAt: Millis;
  respondedAt?: Millis;
  endedAt: Millis;
  /** `truncated`: the body was longer than the bytes kept. */
  response?: { status: number; headers: Record<string, string>; chunks: readonly Buffer[]; truncated: boolean };
  error?: TransportError;
}
