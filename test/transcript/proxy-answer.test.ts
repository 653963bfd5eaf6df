import { describe, expect, it } from 'vitest';
import type { RecordedResponse } from '../../src/transcript/exchange.js';
import { proxyAnswer } from '../../src/transcript/proxy-answer.js';
import { HAPROXY_503_PAGE, HAPROXY_504_PAGE, NGINX_502_PAGE, NGINX_504_PAGE, PROVISIONER_503_BEHIND_NGINX, type ProxyPage } from '../support/proxy-pages.js';

function response(status: number, body: string, headers: Record<string, string> = {}): RecordedResponse {
  let json: RecordedResponse['json'];
  try {
    json = { ok: true, value: JSON.parse(body) as unknown };
  } catch {
    json = { ok: false, error: 'not JSON' };
  }
  return { status, headers, body, bodyBytes: Buffer.byteLength(body), truncated: false, json };
}

function fromPage(page: ProxyPage): RecordedResponse {
  return response(page.status, page.body, { ...page.headers, 'content-type': page.contentType });
}

describe('proxyAnswer', () => {
  it("names nginx and HAProxy from their own error pages, HAProxy's without any header", () => {
    expect(proxyAnswer(fromPage(NGINX_502_PAGE))).toEqual({ name: 'nginx' });
    expect(proxyAnswer(fromPage(NGINX_504_PAGE))).toEqual({ name: 'nginx' });
    expect(proxyAnswer(fromPage(HAPROXY_503_PAGE))).toEqual({ name: 'HAProxy' });
    expect(proxyAnswer(fromPage(HAPROXY_504_PAGE))).toEqual({ name: 'HAProxy' });
    expect(proxyAnswer(response(500, '<html><body><center><h1>500 Internal Server Error</h1></center><hr><center>nginx</center></body></html>'))).toEqual({ name: 'nginx' });
  });

  it('names Envoy, Cloudflare, Varnish, Squid and Apache from their pages', () => {
    expect(proxyAnswer(response(503, 'no healthy upstream', { server: 'envoy' }))).toEqual({ name: 'Envoy' });
    expect(proxyAnswer(response(503, 'upstream connect error or disconnect/reset before headers. reset reason: connection failure'))).toEqual({ name: 'Envoy' });
    expect(proxyAnswer(response(524, '<html><body><div id="cf-wrapper"><h1>A timeout occurred</h1></div></body></html>'))).toEqual({ name: 'Cloudflare' });
    expect(proxyAnswer(response(503, '<html><body><h1>Error 503 Backend fetch failed</h1><h3>Guru Meditation:</h3></body></html>'))).toEqual({ name: 'Varnish' });
    expect(proxyAnswer(response(503, '<html><body><div id="footer"><p>Generated Tue, 12 Mar 2024 10:00:00 GMT by gw (squid/5.7)</p></div></body></html>'))).toEqual({ name: 'Squid' });
    expect(proxyAnswer(response(502, '<html><body><h1>Proxy Error</h1><p>The proxy server received an invalid response.</p></body></html>'))).toEqual({ name: 'Apache httpd' });
  });

  it('names the proxy from Server or Via on a 502, 503 or 504 that carries no page of its own', () => {
    expect(proxyAnswer(response(502, '', { server: 'Caddy' }))).toEqual({ name: 'Caddy' });
    expect(proxyAnswer(response(503, '', { server: 'awselb/2.0' }))).toEqual({ name: 'AWS ELB' });
    expect(proxyAnswer(response(503, 'Service Unavailable', { via: '1.1 varnish (Varnish/7.4)' }))).toEqual({ name: 'Varnish' });
    expect(proxyAnswer(response(504, 'Gateway Timeout', { via: '1.1 proxy.example (Apache/2.4.57)' }))).toEqual({ name: 'Apache httpd' });
  });

  it('calls an unnamed 502 or 504 a proxy: by definition a gateway gives them', () => {
    expect(proxyAnswer(response(502, 'Bad Gateway'))).toEqual({});
    expect(proxyAnswer(response(504, '<html><body><h1>Gateway Timeout</h1></body></html>', { server: 'Apache/2.4.57' }))).toEqual({});
  });

  it("leaves the provisioner's own answers to the provisioner, whatever Server header a proxy stamped on them", () => {
    // A JSON body or a JSON content type is the provisioner's word.
    expect(proxyAnswer(fromPage(PROVISIONER_503_BEHIND_NGINX))).toBeUndefined();
    expect(proxyAnswer(response(502, '{"message":"upstream database down"}', { server: 'nginx' }))).toBeUndefined();
    expect(proxyAnswer(response(504, '', { 'content-type': 'application/problem+json' }))).toBeUndefined();
    // A 500 passed on by a proxy is the provisioner's, and so is an unnamed 503.
    expect(proxyAnswer(response(500, '<html><body><pre>Internal Server Error</pre></body></html>', { server: 'nginx/1.24.0' }))).toBeUndefined();
    expect(proxyAnswer(response(503, 'Service Unavailable'))).toBeUndefined();
    // Apache as the Server is the provisioner's host, not a proxy in front of it.
    expect(proxyAnswer(response(503, '<html><body><h1>Service Unavailable</h1></body></html>', { server: 'Apache/2.4.57 (Debian)' }))).toBeUndefined();
    // Below 500 nothing is the proxy's here.
    expect(proxyAnswer(response(404, '<html><body><center><h1>404 Not Found</h1></center><hr><center>nginx</center></body></html>', { server: 'nginx' }))).toBeUndefined();
    expect(proxyAnswer(response(200, 'ok', { server: 'nginx' }))).toBeUndefined();
  });
});
