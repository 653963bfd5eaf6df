import { randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A change as this provisioner reads it: only what it needs to answer. */
export interface SlowChange {
  id: string;
  environment: string;
  properties?: unknown;
}

/** The bugs this provisioner can have, each found only by change sets the bundled ones are not. */
export type SlowBug =
  /** With three changes or more, the final answer leaves out the last change's result. */
  | 'third-change-lost'
  /** A change whose id holds a character outside ASCII makes plan and apply answer 500. */
  | 'unicode-id-500'
  /** Results are kept by id alone: one id in two environments gets one result, in the last environment. */
  | 'results-by-id'
  /** A change whose properties are `{}` makes plan and apply answer 500. */
  | 'empty-properties-500';

export interface SlowProvisioner {
  url: string;
  close(): Promise<void>;
}

interface Operation {
  doneAt: number;
  results: unknown[];
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

const ACTIONS = ['created', 'updated', 'removed'];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isName(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

/** The changes of a body that is a change set as the published schema says, else undefined. */
function changesOf(text: string): SlowChange[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(parsed) || !Array.isArray(parsed.changes) || parsed.changes.length === 0) return undefined;
  if (['application', 'environment', 'kind', 'type'].some((field) => field in parsed && !isName(parsed[field]))) return undefined;
  const valid = parsed.changes.every(
    (change: unknown) =>
      isObject(change) && isName(change.id) && isName(change.environment) && ACTIONS.includes(change.action as string) && (!('properties' in change) || isObject(change.properties)),
  );
  if (!valid) return undefined;
  const changes = parsed.changes as SlowChange[];
  // Each (id, environment) pair once: JSON keeps both strings whole, so a pair's JSON is its key.
  const pairs = new Set(changes.map((change) => JSON.stringify([change.id, change.environment])));
  return pairs.size === changes.length ? changes : undefined;
}

function refuses(bug: SlowBug | undefined, changes: readonly SlowChange[]): boolean {
  if (bug === 'unicode-id-500') return changes.some((change) => [...change.id].some((unit) => unit.codePointAt(0)! > 0x7e));
  if (bug === 'empty-properties-500') {
    return changes.some((change) => typeof change.properties === 'object' && change.properties !== null && Object.keys(change.properties).length === 0);
  }
  return false;
}

function resultsOf(bug: SlowBug | undefined, changes: readonly SlowChange[]): unknown[] {
  const result = (change: SlowChange): unknown => ({ id: change.id, environment: change.environment, outcome: 'succeeded', description: `${change.id} is ready` });
  if (bug === 'third-change-lost' && changes.length >= 3) return changes.slice(0, -1).map(result);
  if (bug === 'results-by-id') return [...new Map(changes.map((change) => [change.id, result(change)])).values()];
  return changes.map(result);
}

/**
 * A provisioner written apart from the kit's reference: every plan and apply is accepted with 202 and ends
 * `workMs` later, reads say in_progress until then and the same final answer after; unknown and malformed
 * ids answer 404, bodies that are no change set 400. Correct but for the one bug it is given; with
 * `everyFifthRead503`, every fifth read of any id answers 503, as a busy load balancer does now and then.
 */
export async function startSlowProvisioner(workMs: number, bug?: SlowBug, options: { everyFifthRead503?: boolean } = {}): Promise<SlowProvisioner> {
  const operations = new Map<string, Operation>();
  let reads = 0;
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
      if (request.method === 'POST' && (path === '/plan' || path === '/apply')) {
        const changes = changesOf(body);
        if (!changes) return send(response, 400, { error: 'not a change set' });
        if (refuses(bug, changes)) return send(response, 500, { error: 'internal error' });
        const operationId = randomUUID();
        operations.set(operationId, { doneAt: Date.now() + workMs, results: resultsOf(bug, changes) });
        return send(response, 202, { operationId });
      }
      const operation = request.method === 'GET' && path.startsWith('/operations/') ? operations.get(path.slice('/operations/'.length)) : undefined;
      // A read the load balancer could not serve: the control plane reads again, and so must the kit.
      if (options.everyFifthRead503 && request.method === 'GET' && ++reads % 5 === 0) return send(response, 503, { error: 'try again' });
      if (!operation) return send(response, 404, { error: 'unknown operation' });
      if (Date.now() < operation.doneAt) return send(response, 200, { outcome: 'in_progress', description: 'working on it', results: [] });
      return send(response, 200, { outcome: 'succeeded', description: 'all done', results: operation.results });
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}
