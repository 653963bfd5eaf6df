import { createServer } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { CallLog } from './calls.js';
import type { ReferenceContext } from './context.js';
import { faultNamed } from './faults/index.js';
import { randomOperationIds } from './operation-ids.js';
import { OperationStore } from './operations.js';
import type { ReferenceOptions, ResolvedOptions } from './options.js';
import { resolveOptions } from './options.js';
import { answerRead } from './reads.js';
import { MAX_BODY_BYTES, readBody } from './request-body.js';
import type { Reply } from './responses.js';
import { errorReply, methodNotAllowedReply } from './responses.js';
import { sendReply } from './send-reply.js';
import { notFoundReply } from './not-found.js';
import type { Seams } from './seams.js';
import type { StoreBackend } from './store-file.js';
import { fileBackend, memoryBackend } from './store-file.js';
import { answerSubmission } from './submit.js';

export interface RunningReference {
  /** Base URL, e.g. http://127.0.0.1:40123; the same after a restart. */
  url: string;
  /** Stops listening and drops every open connection. */
  close(): Promise<void>;
  /**
   * Closes the server (dropping connections, and refusing new ones for a moment) and opens it again on the
   * same port with the same store, call log and source of operation ids (what a provisioner keeps in its
   * database). Everything else it held in memory is lost, as when a process restarts.
   */
  restart(): Promise<void>;
}

const OPERATIONS_PREFIX = '/operations/';

/** One listening server with its own memory; a restart replaces it with a new one. */
interface Incarnation {
  port: number;
  close(): Promise<void>;
}

/** Starts the reference provisioner; rejects when an option (such as the fault name) is unknown or the store is unreadable. */
export async function startReferenceProvisioner(options: ReferenceOptions = {}): Promise<RunningReference> {
  const resolved = resolveOptions(options);
  const seams: Seams = resolved.fault === undefined ? {} : faultNamed(resolved.fault);
  const backend = resolved.storeFile === undefined ? memoryBackend() : fileBackend(resolved.storeFile);
  // What a real provisioner keeps in its database: the calls it has seen and where its ids go on. A restart
  // loses everything else it held in memory.
  const kept: KeptState = { calls: new CallLog(resolved.maxOperationDurationMs), nextOperationId: seams.operationIds?.() ?? randomOperationIds };
  let current = await open(resolved, seams, backend, kept, resolved.port);
  const port = current.port;
  let closed: Promise<void> | undefined;
  let restarting: Promise<void> = Promise.resolve();
  return {
    url: `http://${resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host}:${port}`,
    close() {
      closed ??= restarting.catch(() => undefined).then(() => current.close());
      return closed;
    },
    restart() {
      if (closed) return Promise.reject(new Error('the reference provisioner is closed'));
      restarting = restarting.then(async () => {
        await current.close();
        await sleep(resolved.restartPauseMs);
        if (closed) return;
        current = await open(resolved, seams, backend, kept, port);
      });
      return restarting;
    },
  };
}

/** What the reference keeps across its restarts besides its store. */
interface KeptState {
  calls: CallLog;
  nextOperationId: ReferenceContext['nextOperationId'];
}

async function open(options: ResolvedOptions, seams: Seams, backend: StoreBackend, kept: KeptState, port: number): Promise<Incarnation> {
  const closing = new AbortController();
  const now = (): number => Date.now();
  const context: ReferenceContext = {
    options,
    seams,
    store: OperationStore.open(backend, options.maxOperationDurationMs, seams.restore, now()),
    calls: kept.calls,
    nextOperationId: kept.nextOperationId,
    closing: closing.signal,
    now,
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
  await listen(server, options.host, port);
  let closed: Promise<void> | undefined;
  return {
    port: (server.address() as AddressInfo).port,
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
  const path = (req.url ?? '/').split('?')[0]!;
  if (path === '/plan' || path === '/apply') {
    if (req.method !== 'POST') return drained(req, methodNotAllowedReply(req.method, 'POST'));
    const body = await readBody(req, MAX_BODY_BYTES);
    if (body.tooLarge) return errorReply(413, `the body is larger than ${MAX_BODY_BYTES} bytes`);
    return answerSubmission(path === '/plan' ? 'plan' : 'apply', body.text, context);
  }
  if (path.startsWith(OPERATIONS_PREFIX)) {
    if (req.method !== 'GET') return drained(req, methodNotAllowedReply(req.method, 'GET'));
    req.resume();
    return answerRead(path.slice(OPERATIONS_PREFIX.length), context);
  }
  return drained(req, notFoundReply(`nothing is served at ${req.method ?? 'GET'} ${path.slice(0, 200)}`, context.seams));
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
