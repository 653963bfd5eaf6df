import { afterEach } from 'vitest';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProvisionerClient, type ClientOptions } from '../../src/client/client.js';
import { Transcript } from '../../src/transcript/transcript.js';

/**
 * A loopback server and a client aimed at it, both closed after each test of the calling file: `serve` answers
 * with `handler` and returns the client.
 */
export function useLoopbackClient(): (handler: RequestListener, options?: Partial<ClientOptions>) => Promise<ProvisionerClient> {
  let server: Server | undefined;
  let client: ProvisionerClient | undefined;
  afterEach(async () => {
    await client?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
    client = undefined;
  });
  return async (handler, options = {}) => {
    server = createServer(handler);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    client = new ProvisionerClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, transcript: new Transcript(), ...options });
    return client;
  };
}
