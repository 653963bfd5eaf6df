import type { ServerResponse } from 'node:http';
import type { Reply } from './responses.js';

/** Writes a reply, unless the connection is gone or an answer was already sent. */
export function sendReply(res: ServerResponse, reply: Reply): void {
  if (res.destroyed || res.headersSent) return;
  res.writeHead(reply.status, {
    ...reply.headers,
    'content-type': reply.contentType,
    'content-length': Buffer.byteLength(reply.body),
  });
  res.end(reply.body);
}
