import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The request headers an echoing provisioner repeats back in everything it says. */
export const ECHOED_HEADERS = ['authorization', 'x-api-key', 'x-custom-auth'] as const;

interface Operation {
  reads: number;
  echo: string;
  changes: Array<{ id: unknown; environment: unknown }>;
}

export interface EchoingProvisioner {
  url: string;
  close(): Promise<void>;
}

function echoOf(request: IncomingMessage): string {
  return ECHOED_HEADERS.map((name) => `${name}=${String(request.headers[name] ?? '')}`).join(' ');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function send(response: ServerResponse, status: number, body: unknown, type = 'application/json'): void {
  response.writeHead(status, { 'content-type': type });
  response.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/**
 * A careless provisioner that repeats its caller's credential headers: in its progress notes, in an in_progress
 * answer that already carries results (a broken rule, so the answer becomes evidence), in a proxy-like 502
 * error page, and in its final answer's outputs. Reads are counted, never timed.
 */
export async function startEchoingProvisioner(): Promise<EchoingProvisioner> {
  const operations = new Map<string, Operation>();
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
      if (request.method === 'POST' && (path === '/plan' || path === '/apply')) {
        let changes: Operation['changes'] | undefined;
        try {
          const parsed = JSON.parse(body) as { changes?: unknown };
          if (Array.isArray(parsed.changes) && parsed.changes.length > 0) changes = parsed.changes as Operation['changes'];
        } catch {
          changes = undefined;
        }
        if (!changes) return send(response, 400, { error: 'not a change set' });
        const operationId = randomUUID();
        operations.set(operationId, { reads: 0, echo: echoOf(request), changes });
        return send(response, 202, { operationId });
      }
      const operation = request.method === 'GET' && path.startsWith('/operations/') ? operations.get(decodeURIComponent(path.slice(12))) : undefined;
      if (!operation) return send(response, 404, { error: 'unknown operation' });
      operation.reads += 1;
      const results = (outcome: string): unknown[] =>
        operation.changes.map((change) => ({ id: change.id, environment: change.environment, outcome, description: 'done', outputs: { echoed: operation.echo } }));
      if (operation.reads === 1) return send(response, 200, { outcome: 'in_progress', description: `working as ${operation.echo}`, results: [] });
      if (operation.reads === 2) return send(response, 502, `<html><body><h1>Bad Gateway</h1><p>upstream refused ${escapeHtml(operation.echo)}</p></body></html>`, 'text/html');
      if (operation.reads === 3) return send(response, 200, { outcome: 'in_progress', description: `still working as ${operation.echo}`, results: results('succeeded') });
      return send(response, 200, { outcome: 'succeeded', description: `done as ${operation.echo}`, results: results('succeeded') });
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((closed) => {
      server.closeAllConnections();
      server.close(() => closed());
    }),
  };
}
