import type { Socket } from 'node:net';
import { buildConnector } from 'undici';

/**
 * Most bytes undici's parser is handed at once. undici reads a socket with `read()`, which returns all it holds
 * (64 KiB and more), and parses it whole. Past its header limit the parser makes a new error, stack trace
 * and all, for every header left in that read, and goes on reading what the socket still holds after it was
 * destroyed: an answer of 10,000 headers cost some 0.4 s of CPU and tens of megabytes of errors. In reads of
 * 1 KiB, and none once the socket is destroyed, it makes some 150 errors (with 4 KiB reads, a run against such
 * answers still peaked 65 MB higher); an ordinary answer still comes in one read, and a body at the 1 MB limit
 * costs about a fifth more CPU to read.
 */
export const PARSER_READ_BYTES = 1024;

type Read = Socket['read'];

/** Makes the socket's `read()` return at most {@link PARSER_READ_BYTES}, and nothing once it was destroyed. */
export function paceReads(socket: Pick<Socket, 'read' | 'destroyed' | 'readableLength'>): void {
  const read: Read = socket.read.bind(socket);
  socket.read = ((size?: number) => {
    if (socket.destroyed) return null;
    return read(size === undefined && socket.readableLength > PARSER_READ_BYTES ? PARSER_READ_BYTES : size);
  }) as Read;
}

/** undici's connector for these options, its sockets' reads paced. */
export function pacedConnector(options: buildConnector.BuildOptions): buildConnector.connector {
  const connect = buildConnector(options);
  return (connectOptions, callback) =>
    connect(connectOptions, (...args) => {
      const socket = args[1];
      if (socket) paceReads(socket);
      callback(...args);
    });
}
