// No Node types in this file: the package's declarations reach it through the faults, and a consumer may have no
// @types/node. Replies are written by send-reply.ts.
export const JSON_TYPE = 'application/json; charset=utf-8';
export const TEXT_TYPE = 'text/plain; charset=utf-8';
export const HTML_TYPE = 'text/html; charset=utf-8';

/** A complete answer, decided before anything is written. */
export interface Reply {
  status: number;
  contentType: string;
  body: string;
  headers?: Record<string, string>;
}

/** A JSON body; `contentType` lets a fault mislabel it. */
export function jsonReply(status: number, value: unknown, contentType: string = JSON_TYPE): Reply {
  return { status, contentType, body: JSON.stringify(value) };
}

export function errorReply(status: number, message: string): Reply {
  return jsonReply(status, { error: message });
}

export function methodNotAllowedReply(method: string | undefined, allowed: string): Reply {
  return { ...errorReply(405, `${method ?? 'this method'} is not allowed here; use ${allowed}`), headers: { allow: allowed } };
}

/** The page a proxy in front of a provisioner sends when no backend answers. */
export function proxyUnavailableReply(): Reply {
  const body =
    '<html><head><title>503</title><style>body { font-family: sans-serif; margin: 2em; } h1 { color: #a00; }</style></head>' +
    '<body><h1>503 Service Unavailable</h1><p>No server is available to handle this request.</p></body></html>';
  return { status: 503, contentType: HTML_TYPE, body };
}
