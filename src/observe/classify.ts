import type { ExchangeTag } from '../transcript/exchange.js';

/** What an observed request is, as the rules read it: a plan, an apply, a read of an operation, or none of these. */
export type ObservedKind = { tag: Extract<ExchangeTag, 'plan' | 'apply' | 'poll'>; operationId?: string } | undefined;

/**
 * Classifies a request by its method and path as the control plane makes them: `POST /plan`, `POST /apply`,
 * `GET /operations/{id}`. The path is the one the control plane sent (below the observer's root); a query
 * string is ignored. Anything else passes through unjudged.
 */
export function classifyRequest(method: string, path: string): ObservedKind {
  const bare = path.split('?')[0]!.replace(/\/+$/, '');
  if (method === 'POST' && bare === '/plan') return { tag: 'plan' };
  if (method === 'POST' && bare === '/apply') return { tag: 'apply' };
  if (method !== 'GET') return undefined;
  const read = /^\/operations\/([^/]+)$/.exec(bare);
  if (!read) return undefined;
  let operationId: string;
  try {
    operationId = decodeURIComponent(read[1]!);
  } catch {
    operationId = read[1]!;
  }
  return { tag: 'poll', operationId };
}
