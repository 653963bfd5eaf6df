import { afterEach } from 'vitest';
import { http, HttpResponse } from 'msw';
import { serveHandlers, type MockProvisioner } from './msw-server.js';

type Handlers = Parameters<typeof serveHandlers>[0];

/** A succeeded final answer with one result per change, as a correct provisioner gives it. */
export function succeededFor(changes: ReadonlyArray<{ id: unknown; environment: unknown }>): Record<string, unknown> {
  return {
    outcome: 'succeeded',
    description: `Handled ${changes.length} change(s).`,
    results: changes.map((c) => ({ id: c.id, environment: c.environment, outcome: 'succeeded', description: `Handled ${String(c.id)}.` })),
  };
}

/** A provisioner that answers plan and apply at once with `answer`, and knows no operation. */
export function synchronousProvisioner(answer: (args: { request: Request }) => Promise<Response>): Handlers {
  return [
    http.post('*/plan', answer),
    http.post('*/apply', answer),
    http.get('*/operations/:id', () => HttpResponse.json({ error: 'unknown operation' }, { status: 404 })),
  ];
}

/** Serves msw handlers for one test at a time; the server is closed after each test. */
export function mockProvisioners(): { serve(handlers: Handlers): Promise<MockProvisioner> } {
  let server: MockProvisioner | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return {
    async serve(handlers) {
      server = await serveHandlers(handlers);
      return server;
    },
  };
}
