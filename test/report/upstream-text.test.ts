import { describe, expect, it } from 'vitest';
import { upstreamText } from '../../src/report/upstream-text.js';
import { stripControl } from '../../src/report/safe-text.js';
import { HTML_PAGE_WITH_STYLE, NGINX_502 } from './outcome-fixture.js';

const HAPROXY_503 = `<html><body><h1>503 Service Unavailable</h1>
No server is available to handle this request.
</body></html>
`;

const ALB_502 = `<html>
<head><title>502 Bad Gateway</title></head>
<body>
<center><h1>502 Bad Gateway</h1></center>
</body>
</html>
`;

const GOOGLE_LB_502 = `<!DOCTYPE html>
<html lang=en>
  <meta charset=utf-8>
  <meta name=viewport content="initial-scale=1, minimum-scale=1, width=device-width">
  <title>Error 502 (Server Error)!!1</title>
  <style>
    *{margin:0;padding:0}html,code{font:15px/22px arial,sans-serif}html{background:#fff;color:#222}
  </style>
  <a href=//www.google.com/><span id=logo aria-label=Google></span></a>
  <p><b>502.</b> <ins>That’s an error.</ins>
  <p>The server encountered a temporary error and could not complete your request.<p>Please try again in 30 seconds.  <ins>That’s all we know.</ins>
`;

const CLOUDFLARE_LIKE = `<!DOCTYPE html>
<!--[if lt IE 7]> <html class="no-js ie6 oldie" lang="en-US"> <![endif]-->
<html lang="en-US">
<head><title>example.net | 524: A timeout occurred</title>
<script>(function(){var a=document.getElementById('cf-footer');})();</script>
</head>
<body>
<div id="cf-wrapper"><div id="cf-error-details">
<h1><span class="inline-block">A timeout occurred</span> <span class="code-label">Error code 524</span></h1>
<p>The origin web server timed out responding to this request.</p>
<p>Visit <a href="https://www.example.net/help">the help page</a> for more.</p>
</div></div>
</body></html>`;

const ENVOY_503 = 'upstream connect error or disconnect/reset before headers. reset reason: connection failure, transport failure reason: delayed connect error: 111';

function expectNoMarkup(text: string): void {
  expect(text).not.toMatch(/[<>]/);
  expect(text).not.toMatch(/font-family|margin:0|getElementById|secretScriptMarker|hidden-style-marker/);
}

describe('upstreamText', () => {
  it('reduces an nginx 502 page to its heading and footer, without the title element', () => {
    const text = upstreamText(NGINX_502, 'text/html');
    expect(text).toBe('502 Bad Gateway\n\nnginx/1.25.4');
  });

  it('drops head, style and script, keeps heading and paragraph, and keeps link text but not targets', () => {
    const text = upstreamText(HTML_PAGE_WITH_STYLE, 'text/html; charset=utf-8');
    expect(text).toContain('Service Unavailable');
    expect(text).toContain('The gateway could not reach the provisioner in time.');
    expect(text).not.toContain('status.example.net');
    expect(text.match(/Service Unavailable/g)).toHaveLength(1);
    expectNoMarkup(text);
  });

  it('reads a HAProxy 503 page found by sniffing, with no content type', () => {
    const text = upstreamText(HAPROXY_503);
    expect(text).toBe('503 Service Unavailable\n\nNo server is available to handle this request.');
  });

  it('reads a cloud load balancer page', () => {
    expect(upstreamText(ALB_502, 'text/html')).toBe('502 Bad Gateway');
    const google = upstreamText(GOOGLE_LB_502, 'text/html; charset=UTF-8');
    expect(google).toContain('502. That’s an error.');
    expect(google).toContain('The server encountered a temporary error and could not complete your request.');
    expect(google).not.toContain('Error 502 (Server Error)!!1');
    expectNoMarkup(google);
    const cloudflare = upstreamText(CLOUDFLARE_LIKE, 'text/html');
    expect(cloudflare).toContain('A timeout occurred Error code 524');
    expect(cloudflare).toContain('The origin web server timed out responding to this request.');
    expect(cloudflare).toContain('Visit the help page for more.');
    expectNoMarkup(cloudflare);
  });

  it('leaves Envoy plain text as it is', () => {
    expect(upstreamText(ENVOY_503, 'text/plain')).toBe(ENVOY_503);
  });

  it('pretty-prints JSON and leaves text that only looks like JSON alone', () => {
    expect(upstreamText('{"outcome":"failed","results":[]}', 'application/json')).toBe('{\n  "outcome": "failed",\n  "results": []\n}');
    expect(upstreamText('{"outcome":', 'application/json')).toBe('{"outcome":');
    expect(upstreamText('[1,2]')).toBe('[\n  1,\n  2\n]');
  });

  it('removes ANSI escapes and control characters but keeps newlines and tabs', () => {
    const body =
      '\u001b[31mERROR\u001b[0m disk full\r\n' +
      '\u001b]0;pwned title\u0007\u001b[2J\u001b[1;1Hnext\tline\u0000\u0008\u007f\n' +
      '\u001b]8;;https://evil.example\u001b\\click\u001b]8;;\u001b\\ here\u009b31m\u202eevil\n' +
      'unterminated \u001b]0;title\nstill shown';
    const text = upstreamText(body, 'text/plain');
    expect(text).toBe('ERROR disk full\nnext\tline\nclick hereevil\nunterminated \nstill shown');
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });

  it('strips escapes inside JSON values too', () => {
    const text = upstreamText(JSON.stringify({ description: '\u001b[31mred\u001b[0m' }), 'application/json');
    expect(text).toBe('{\n  "description": "\\u001b[31mred\\u001b[0m"\n}');
    expect(stripControl('a\u001b[31mb')).toBe('ab');
  });

  it('cuts a huge body and says how much was left out', () => {
    const body = 'x'.repeat(5412);
    const text = upstreamText(body, 'text/plain');
    expect(text).toBe(`${'x'.repeat(2000)}… (3,412 more characters)`);
    expect(upstreamText(body, 'text/plain', 10)).toBe('xxxxxxxxxx… (5,402 more characters)');
  });

  it('handles a huge HTML page quickly and cuts it', () => {
    const page = `<html><body><h1>Big</h1>${'<p>paragraph of filler text</p>'.repeat(200_000)}</body></html>`;
    const started = Date.now();
    const text = upstreamText(page, 'text/html');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(text.startsWith('Big\n\nparagraph of filler text')).toBe(true);
    expect(text).toMatch(/… \([\d,]+ more characters\)$/);
  });

  it('does not split a surrogate pair when cutting', () => {
    const text = upstreamText(`a${'😀'.repeat(3)}`, 'text/plain', 2);
    expect(text.startsWith('a…')).toBe(true);
  });
});
