import { maxHeaderSize } from 'node:http';
import type { Socket } from 'node:net';
import { buildConnector, errors } from 'undici';
import { HeadCount } from './head-count.js';
import { COLLECTION_SCHEDULE } from './collection-schedule.js';

/**
 * Most bytes undici's parser is handed at once. undici reads a socket with `read()`, which returns all it holds
 * (64 KiB and more), and parses it whole: past its header limit the parser makes a new error, stack trace
 * and all, for every header left in that read. In reads of 1 KiB an ordinary answer still comes in one read,
 * and a body at the 1 MB limit costs about a fifth more CPU to read.
 */
export const PARSER_READ_BYTES = 1024;

type Read = Socket['read'];
type Write = Socket['write'];
type PacedSocket = Pick<Socket, 'read' | 'write' | 'unshift' | 'destroy' | 'destroyed' | 'readableLength'>;

/**
 * Makes the socket's `read()` return at most {@link PARSER_READ_BYTES}, and nothing once it was destroyed; and
 * refuses an answer whose head passes undici's header limit before undici parses it. undici keeps a buffer for
 * every header name and value it parses, and past its limit makes an error with its stack for each one left
 * in the read: an answer of 10,000 headers cost a read some 400 KB of garbage and 2 to 3 ms of CPU. The head
 * is counted ahead of the parser, on all the socket holds, and the socket is destroyed with undici's own
 * error once the count reaches `headLimit`. An answer's head starts with what the socket reads after a
 * request is written (undici sends one request at a time on a connection).
 */
export function paceReads(socket: PacedSocket, headLimit: number = maxHeaderSize): void {
  const read: Read = socket.read.bind(socket);
  const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
  let head: HeadCount | undefined = new HeadCount(headLimit);
  // Bytes at the front of the socket's buffer that `head` has counted already.
  let counted = 0;
  socket.write = ((...args: unknown[]) => {
    head = new HeadCount(headLimit);
    counted = 0;
    return write(...args);
  }) as Write;
  socket.read = ((size?: number) => {
    if (socket.destroyed) return null;
    if (size !== undefined) return read(size);
    // A size past what the socket holds would make read() wait for more, so such a read takes all it holds.
    if (head === undefined) return read(socket.readableLength > PARSER_READ_BYTES ? PARSER_READ_BYTES : undefined);
    const chunk: unknown = read();
    if (!Buffer.isBuffer(chunk)) return chunk;
    if (counted < chunk.length) {
      head.read(chunk, counted);
      counted = chunk.length;
      if (head.overflowed) {
        // What the socket read of a refused answer is dropped: counted as bodies are, so that the collector
        // frees such buffers while the run goes on (a burst of refused answers left some 30 MB of them).
        COLLECTION_SCHEDULE.read(chunk.length + socket.readableLength);
        socket.destroy(new errors.HeadersOverflowError());
        return null;
      }
    }
    if (head.ended) head = undefined;
    if (chunk.length <= PARSER_READ_BYTES) {
      counted = 0;
      return chunk;
    }
    socket.unshift(chunk.subarray(PARSER_READ_BYTES));
    counted -= PARSER_READ_BYTES;
    return chunk.subarray(0, PARSER_READ_BYTES);
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
