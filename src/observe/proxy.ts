import { Agent as HttpAgent, createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { now } from '../client/clock.js';
import { classifyTransportError } from '../client/transport-error.js';
import type { Millis, TransportError } from '../transcript/exchange.js';
import { BodyCapture } from './capture.js';
import { endToEndHeaders, recordedHeaders } from './hop-by-hop.js';

/** One exchange as it passed through the proxy: what was sent upstream and what came back, bodies kept up to the limit. */
export interface ProxiedExchange {
  method: string;
  /** The URL the request went to upstream. */
  url: string;
  /** The path and query the control plane asked for, below the observer's root. */
  path: string;
  requestHeaders: Record<string, string>;
  requestBody: BodyCapture;
  sentAt: Millis;
  respondedAt?: Millis;
  endedAt: Millis;
  status?: number;
  responseHeaders?: Record<string, string>;
  responseBody?: BodyCapture;
  error?: TransportError;
}

export interface ProxyOptions {
  /** The provisioner's base URL; request paths are appended to its path. */
  upstream: string;
  host: string;
  port: number;
  /** Bytes of each body kept for judging; the body itself always passes whole. */
  bodyLimitBytes: number;
  /** Hears each exchange once its answer was sent; whatever it does or throws never touches the traffic. */
  onExchange: (exchange: ProxiedExchange) => void;
  /** Hears a failure of the recording side (a listener that threw), for the report. */
  onRecordingError?: (error: unknown) => void;
}

export interface RunningProxy {
  /** The URL the control plane calls in place of the provisioner. */
  url: string;
  /** Requests in flight now. */
  inFlight(): number;
  /** Stops taking connections, waits for the exchanges in flight (at most `graceMs`), then closes every connection. */
  close(graceMs?: number): Promise<void>;
}

/**
 * A reverse proxy in front of the provisioner: every request goes upstream unchanged (method, path, query,
 * end-to-end headers, body bytes), every answer comes back unchanged (status, headers, body, streamed as it
 * arrives). Hop-by-hop headers are left to each connection, as HTTP requires; Host names the upstream. A copy
 * of each body, up to the limit, is kept beside the stream for the judge, which hears of the exchange only
 * after its answer was sent. An upstream that cannot be reached is answered 502 with a JSON body.
 */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const target = upstreamTarget(options.upstream);
  const hand = (exchange: ProxiedExchange): void => handOver(options, exchange);
  let inFlight = 0;
  let idle: (() => void) | undefined;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    inFlight += 1;
    let counted = true;
    const done = (): void => {
      if (!counted) return;
      counted = false;
      inFlight -= 1;
      if (inFlight === 0) idle?.();
    };
    res.on('close', done);
    try {
      forward(target, options.bodyLimitBytes, req, res, hand);
    } catch {
      // a request Node itself refuses to send on (a header it will not write) never takes the proxy down
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    inFlight: () => inFlight,
    async close(graceMs = 5000) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (inFlight > 0) {
        await Promise.race([new Promise<void>((resolve) => (idle = resolve)), new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
      }
      server.closeAllConnections();
      await closed;
      target.agent.destroy();
    },
  };
}

/** Where requests go: the upstream's origin and base path, over one keep-alive agent. */
interface UpstreamTarget {
  origin: string;
  host: string;
  basePath: string;
  send: typeof httpRequest;
  agent: HttpAgent | HttpsAgent;
}

function upstreamTarget(base: string): UpstreamTarget {
  const upstream = new URL(base);
  const secure = upstream.protocol === 'https:';
  return {
    origin: upstream.origin,
    host: upstream.host,
    basePath: upstream.pathname.replace(/\/+$/, ''),
    send: secure ? httpsRequest : httpRequest,
    agent: secure ? new HttpsAgent({ keepAlive: true, maxSockets: 256 }) : new HttpAgent({ keepAlive: true, maxSockets: 256 }),
  };
}

/** Tells the listener of an exchange after its answer, off the request's own stack: a slow or throwing listener delays and breaks nothing. */
function handOver(options: ProxyOptions, exchange: ProxiedExchange): void {
  setImmediate(() => {
    try {
      options.onExchange(exchange);
    } catch (error) {
      try {
        options.onRecordingError?.(error);
      } catch {
        // nothing more can be done about a listener of failures that fails
      }
    }
  });
}

/** Passes one request upstream and its answer back, both streamed, keeping a copy of each body up to the limit. */
function forward(target: UpstreamTarget, bodyLimitBytes: number, req: IncomingMessage, res: ServerResponse, hand: (exchange: ProxiedExchange) => void): void {
  const path = req.url ?? '/';
  const url = `${target.origin}${target.basePath}${path}`;
  const method = req.method ?? 'GET';
  const headers = endToEndHeaders(req.rawHeaders, ['host']);
  headers.host = target.host;
  const exchange: ProxiedExchange = {
    method,
    url,
    path,
    requestHeaders: recordedHeaders(headers),
    requestBody: new BodyCapture(bodyLimitBytes),
    sentAt: now(),
    endedAt: 0,
  };
  let settled = false;
  const settle = (error?: TransportError): void => {
    if (settled) return;
    settled = true;
    exchange.endedAt = now();
    if (error) exchange.error = error;
    hand(exchange);
  };
  const outgoing = target.send(url, { method, headers, agent: target.agent });
  req.on('data', (chunk: Buffer) => exchange.requestBody.add(chunk));
  req.pipe(outgoing);
  // The control plane went away before its answer: the upstream request goes too.
  req.on('aborted', () => outgoing.destroy());
  res.on('close', () => {
    if (!res.writableFinished) outgoing.destroy();
  });
  outgoing.on('error', (error) => {
    const transport = classifyTransportError(error, false, 0);
    if (!res.headersSent) answerUnreachable(res, target.origin, transport);
    else res.destroy();
    settle(transport);
  });
  outgoing.on('response', (answer: IncomingMessage) => {
    exchange.respondedAt = now();
    exchange.status = answer.statusCode ?? 0;
    const answerHeaders = endToEndHeaders(answer.rawHeaders);
    exchange.responseHeaders = recordedHeaders(answerHeaders);
    const body = new BodyCapture(bodyLimitBytes);
    exchange.responseBody = body;
    res.writeHead(exchange.status, answer.statusMessage, answerHeaders);
    answer.on('data', (chunk: Buffer) => body.add(chunk));
    answer.pipe(res);
    answer.on('end', () => settle());
    answer.on('error', (error) => {
      res.destroy();
      settle(classifyTransportError(error, false, 0));
    });
    answer.on('aborted', () => {
      res.destroy();
      settle({ kind: 'reset', message: 'the provisioner closed the connection before the answer was complete' });
    });
  });
}

/** The control plane's answer when the provisioner could not be reached: 502, saying so in JSON. */
function answerUnreachable(res: ServerResponse, origin: string, transport: TransportError): void {
  const body = JSON.stringify({
    error: 'provisioner unreachable',
    message: `the observer could not reach the provisioner at ${origin}: ${transport.message}`,
  });
  res.writeHead(502, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
