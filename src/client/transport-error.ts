import { maxHeaderSize } from 'node:http';
import type { TransportError, TransportErrorKind } from '../transcript/exchange.js';

const KIND_BY_CODE: Record<string, TransportErrorKind> = {
  ECONNREFUSED: 'refused',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  UND_ERR_SOCKET: 'reset',
  UND_ERR_CLOSED: 'reset',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  ETIMEDOUT: 'timeout',
};

function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code in KIND_BY_CODE) return code;
  const cause = (error as { cause?: unknown }).cause;
  return cause === undefined ? (typeof code === 'string' ? code : undefined) : codeOf(cause);
}

/**
 * TLS errors whose cause is nearly always the same: an https:// URL aimed at a port that speaks plain HTTP,
 * whose first bytes OpenSSL reads as a record of an unknown version.
 */
const PLAIN_HTTP_CODES = new Set(['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_HTTP_REQUEST', 'ERR_SSL_PACKET_LENGTH_TOO_LONG']);

/** One line for a TLS error, in place of OpenSSL's text with its source file and line. */
function tlsMessage(code: string): string | undefined {
  if (PLAIN_HTTP_CODES.has(code)) return `TLS handshake failed (${code}): the port speaks plain HTTP: try http://`;
  if (code.startsWith('ERR_SSL_')) return `TLS handshake failed (${code})`;
  return undefined;
}

/** Turns whatever undici threw into a transport error a report can show. */
export function classifyTransportError(error: unknown, timedOut: boolean, timeoutMs: number): TransportError {
  if (timedOut) return { kind: 'timeout', message: `no complete answer within ${timeoutMs} ms` };
  const code = codeOf(error);
  const tls = code === undefined ? undefined : tlsMessage(code);
  if (tls !== undefined) return { kind: 'other', message: tls };
  // undici's own words ("Headers Overflow Error") do not say whose headers, or how long they may be.
  if (code === 'UND_ERR_HEADERS_OVERFLOW') {
    return { kind: 'other', message: `the answer's headers are longer than ${maxHeaderSize.toLocaleString('en-US')} bytes, more than the kit (like Node's HTTP client) reads (${code})` };
  }
  const kind = (code && KIND_BY_CODE[code]) || 'other';
  const message = error instanceof Error ? error.message : String(error);
  if (kind === 'timeout') return { kind, message: `no complete answer within ${timeoutMs} ms (${code})` };
  return { kind, message: code && !message.includes(code) ? `${code}: ${message}` : message };
}
