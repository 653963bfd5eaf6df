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
  const upstream = new URL(options.upstream);
  const secure = upstream.protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true, maxSockets: 256 }) : new HttpAgent({ keepAlive: true, maxSockets: 256 });
  const basePath = upstream.pathname.replace(/\/+$/, '');
  let inFlight = 0;
  let idle: (() => void) | undefined;

  const hand = (exchange: ProxiedExchange): void => {
    // After the answer, off the request's own stack: a slow or throwing listener delays and breaks nothing.
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
  };

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
    forward(req, res).catch(() => undefined);
  });

  async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = req.url ?? '/';
    const url = `${upstream.origin}${basePath}${path}`;
    const method = req.method ?? 'GET';
    const headers = endToEndHeaders(req.rawHeaders, ['host']);
    headers.host = upstream.host;
    const exchange: ProxiedExchange = {
      method,
      url,
      path,
      requestHeaders: recordedHeaders(headers),
      requestBody: new BodyCapture(options.bodyLimitBytes),
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
    const send = secure ? httpsRequest : httpRequest;
    const outgoing = send(url, { method, headers, agent });
    req.on('data', (chunk: Buffer) => exchange.requestBody.add(chunk));
    req.pipe(outgoing);
    // The control plane went away before its answer: the upstream request goes too.
    req.on('aborted', () => outgoing.destroy());
    res.on('close', () => {
      if (!res.writableFinished) outgoing.destroy();
    });
    outgoing.on('error', (error) => {
      const transport = classifyTransportError(error, false, 0);
      if (!res.headersSent) {
        const body = JSON.stringify({
          error: 'provisioner unreachable',
          message: `the observer could not reach the provisioner at ${upstream.origin}: ${transport.message}`,
        });
        res.writeHead(502, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      } else {
        res.destroy();
      }
      settle(transport);
    });
    outgoing.on('response', (answer: IncomingMessage) => {
      exchange.respondedAt = now();
      exchange.status = answer.statusCode ?? 0;
      const answerHeaders = endToEndHeaders(answer.rawHeaders);
      exchange.responseHeaders = recordedHeaders(answerHeaders);
      const body = new BodyCapture(options.bodyLimitBytes);
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
      agent.destroy();
    },
  };
}
