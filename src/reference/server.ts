import { createServer } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { ReferenceContext } from './context.js';
import { operationIdSource } from './operation-ids.js';
import { OperationStore } from './operations.js';
import type { ReferenceOptions } from './options.js';
import { resolveOptions } from './options.js';
import { answerRead } from './reads.js';
import { answerRacingRead } from './racing-reads.js';
import { MAX_BODY_BYTES, readBody } from './request-body.js';
import type { Reply } from './responses.js';
import { errorReply, methodNotAllowedReply, notFoundReply, sendReply } from './responses.js';
import { answerSubmission } from './submit.js';

export interface RunningReference {
  /** Base URL, e.g. http://127.0.0.1:40123 */
  url: string;
  /** Stops listening and drops every open connection. */
  close(): Promise<void>;
}

const OPERATIONS_PREFIX = '/operations/';

/** Starts the reference provisioner; rejects when an option (such as the fault name) is unknown. */
export async function startReferenceProvisioner(options: ReferenceOptions = {}): Promise<RunningReference> {
  const resolved = resolveOptions(options);
  const closing = new AbortController();
  const context: ReferenceContext = {
    options: resolved,
    store: new OperationStore(resolved.retentionMs),
    nextOperationId: operationIdSource(resolved.fault),
    closing: closing.signal,
    now: () => performance.now(),
  };
  const server = createServer((req, res) => {
    replyTo(req, context).then(
      (reply) => sendReply(res, reply),
      () => {
        // The client went away or the server is closing: there is no one left to answer.
        if (!closing.signal.aborted && !res.headersSent && !req.destroyed) sendReply(res, errorReply(500, 'internal error'));
        else res.destroy();
      },
    );
  });
  await listen(server, resolved.host, resolved.port);
  const { port } = server.address() as AddressInfo;
  let closed: Promise<void> | undefined;
  return {
    url: `http://${resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host}:${port}`,
    close() {
      closed ??= new Promise<void>((resolve, reject) => {
        closing.abort();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return closed;
    },
  };
}

async function replyTo(req: IncomingMessage, context: ReferenceContext): Promise<Reply> {
  const { fault } = context.options;
  const path = (req.url ?? '/').split('?')[0]!;
  if (path === '/plan' || path === '/apply') {
    if (req.method !== 'POST') return drained(req, methodNotAllowedReply(req.method, 'POST'));
    const body = await readBody(req, MAX_BODY_BYTES);
    if (body.tooLarge) return errorReply(413, `the body is larger than ${MAX_BODY_BYTES} bytes`);
    return answerSubmission(path === '/plan' ? 'plan' : 'apply', body.text, context);
  }
  if (path.startsWith(OPERATIONS_PREFIX)) {
    if (req.method !== 'GET') return drained(req, methodNotAllowedReply(req.method, 'GET'));
    const rawId = path.slice(OPERATIONS_PREFIX.length);
    if (fault === 'racing-reads') return drained(req, await answerRacingRead(rawId, context));
    return drained(req, answerRead(rawId, context));
  }
  return drained(req, notFoundReply(`nothing is served at ${req.method ?? 'GET'} ${path.slice(0, 200)}`, fault));
}

/** Discards a body the route has no use for, so the connection stays usable. */
function drained(req: IncomingMessage, reply: Reply): Reply {
  req.resume();
  return reply;
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
