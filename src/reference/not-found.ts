import { errorReply, type Reply } from './responses.js';
import type { Seams } from './seams.js';

/** Every 404 goes through here, so the not-found seam sees each one; `operationId` when a read asked for one. */
export function notFoundReply(message: string, seams: Seams, about: { operationId?: string } = {}): Reply {
  const reply = errorReply(404, message);
  return seams.notFound?.(reply, about) ?? reply;
}
