import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getResponse, type RequestHandler } from 'msw';

export interface MockProvisioner {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves msw handlers over real loopback HTTP: the kit's client (undici) is never intercepted, so a
 * mutant provisioner must be a real server. Unmatched requests answer 404 JSON.
 */
export async function serveHandlers(handlers: RequestHandler[]): Promise<MockProvisioner> {
  const server: Server = createServer(async (incoming, outgoing) => {
    try {
      const request = await toFetchRequest(incoming);
      const response = (await getResponse(handlers, request)) ?? Response.json({ error: 'no handler' }, { status: 404 });
      outgoing.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body) {
        for await (const chunk of response.body) {
          if (!outgoing.write(chunk)) await new Promise((resolve) => outgoing.once('drain', resolve));
        }
      }
      outgoing.end();
    } catch {
      outgoing.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function toFetchRequest(incoming: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return new Request(`http://${incoming.headers.host ?? '127.0.0.1'}${incoming.url ?? '/'}`, {
    method: incoming.method,
    headers,
    body: incoming.method === 'GET' || incoming.method === 'HEAD' ? undefined : body,
  });
}
