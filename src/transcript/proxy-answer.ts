import type { RecordedResponse } from './exchange.js';

/**
 * Whether an answer came from a proxy in front of the provisioner rather than from the provisioner itself.
 *
 * An answer is the proxy's when it is a 5xx with neither a JSON body nor a JSON content type, and one of these holds:
 * 1. its body is a known proxy's own error page (nginx's footer, HAProxy's sentences, Envoy's texts, …);
 * 2. its status is 502, 503 or 504 and its Server or Via header names a known proxy;
 * 3. its status is 502 or 504: by definition the answer of a gateway or proxy that could not get one upstream.
 * A JSON answer is always the provisioner's own word, whatever header a proxy passing it on added, and a proxy's
 * name in a header alone does not make a 500 the proxy's: proxies pass the provisioner's 500s on, and stamp them.
 */

/** The proxy that answered; `name` is undefined when the answer shows a proxy but not which one. */
export interface ProxyAnswer {
  name?: string;
}

// Each proxy's own error pages, as they ship; the first that matches names the proxy.
const PAGE_SIGNATURES: ReadonlyArray<{ name: string; pattern: RegExp }> = [
  { name: 'nginx', pattern: /<hr>\s*<center>\s*nginx(?:\/[\w.]+)?\s*<\/center>/i },
  { name: 'OpenResty', pattern: /<hr>\s*<center>\s*openresty(?:\/[\w.]+)?\s*<\/center>/i },
  {
    name: 'HAProxy',
    pattern:
      /<h1>\d{3} [^<]*<\/h1>\s*(?:No server is available to handle this request\.|The server didn't respond in time\.|The server returned an invalid or incomplete response\.|An internal server error occurred\.)/,
  },
  { name: 'Envoy', pattern: /^(?:upstream connect error or disconnect\/reset before headers|no healthy upstream$|upstream request timeout$)/ },
  { name: 'Cloudflare', pattern: /id="cf-error-details"|id="cf-wrapper"/ },
  { name: 'Varnish', pattern: /Guru Meditation/ },
  { name: 'Squid', pattern: /Generated [^<]* by [^<]*\(squid(?:\/[\w.]+)?\)/i },
  { name: 'Apache httpd', pattern: /<h1>Proxy Error<\/h1>/ },
  { name: 'AWS ELB', pattern: /<center>\s*awselb(?:\/[\w.]+)?\s*<\/center>/i },
];

// Names in Server and Via headers. Apache is left out: `Server: Apache` is as often the provisioner's own host.
const HEADER_NAMES: ReadonlyArray<{ name: string; pattern: RegExp }> = [
  { name: 'nginx', pattern: /\bnginx\b/i },
  { name: 'OpenResty', pattern: /\bopenresty\b/i },
  { name: 'HAProxy', pattern: /\bhaproxy\b/i },
  { name: 'Envoy', pattern: /\benvoy\b/i },
  { name: 'Traefik', pattern: /\btraefik\b/i },
  { name: 'Caddy', pattern: /\bcaddy\b/i },
  { name: 'AWS ELB', pattern: /\bawselb\b/i },
  { name: 'Cloudflare', pattern: /\bcloudflare\b/i },
  { name: 'Varnish', pattern: /\bvarnish\b/i },
  { name: 'Squid', pattern: /\bsquid\b/i },
  { name: 'Google Front End', pattern: /^(?:gfe|google frontend)\b|\b1\.1 google\b/i },
  { name: 'Apache httpd', pattern: /\bapache\b/i },
];

const GATEWAY_STATUSES = new Set([502, 504]);
const PROXY_STATUSES = new Set([502, 503, 504]);

/** A JSON body or a JSON content type: proxies' own pages are HTML or plain text. */
function isJsonAnswer(response: RecordedResponse): boolean {
  const type = (response.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  return response.json.ok || type === 'application/json' || type.endsWith('+json');
}

function pageName(body: string): string | undefined {
  const text = body.trim();
  return PAGE_SIGNATURES.find(({ pattern }) => pattern.test(text))?.name;
}

function headerName(headers: Readonly<Record<string, string>>): string | undefined {
  const server = headers['server'];
  const via = headers['via'];
  // Only the Via header may name Apache: it is there when Apache forwarded the request, not when it hosts the provisioner.
  const fromServer = server === undefined ? undefined : HEADER_NAMES.find(({ name, pattern }) => name !== 'Apache httpd' && pattern.test(server))?.name;
  return fromServer ?? (via === undefined ? undefined : HEADER_NAMES.find(({ pattern }) => pattern.test(via))?.name);
}

/** The proxy that gave this answer, or undefined when the provisioner gave it (see the criterion above). */
export function proxyAnswer(response: RecordedResponse): ProxyAnswer | undefined {
  if (response.status < 500 || isJsonAnswer(response)) return undefined;
  const page = pageName(response.body);
  if (page !== undefined) return { name: page };
  if (!PROXY_STATUSES.has(response.status)) return undefined;
  const header = headerName(response.headers);
  if (header !== undefined) return { name: header };
  return GATEWAY_STATUSES.has(response.status) ? {} : undefined;
}
