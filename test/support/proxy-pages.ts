/** Error answers as real proxies send them: nginx 1.24 and HAProxy 2.8 with their default pages and headers. */

export interface ProxyPage {
  status: number;
  body: string;
  contentType: string;
  headers: Record<string, string>;
}

function nginxPage(status: number, reason: string): ProxyPage {
  const body = [
    '<html>',
    `<head><title>${status} ${reason}</title></head>`,
    '<body>',
    `<center><h1>${status} ${reason}</h1></center>`,
    '<hr><center>nginx/1.24.0</center>',
    '</body>',
    '</html>',
    '',
  ].join('\r\n');
  return { status, body, contentType: 'text/html', headers: { server: 'nginx/1.24.0', connection: 'keep-alive' } };
}

function haproxyPage(status: number, reason: string, sentence: string): ProxyPage {
  // HAProxy sends no Server header: only its page tells it apart.
  return { status, body: `<html><body><h1>${status} ${reason}</h1>\n${sentence}\n</body></html>\n`, contentType: 'text/html', headers: { 'cache-control': 'no-cache' } };
}

export const NGINX_502_PAGE = nginxPage(502, 'Bad Gateway');
export const NGINX_504_PAGE = nginxPage(504, 'Gateway Time-out');
export const HAPROXY_503_PAGE = haproxyPage(503, 'Service Unavailable', 'No server is available to handle this request.');
export const HAPROXY_504_PAGE = haproxyPage(504, 'Gateway Time-out', "The server didn't respond in time.");

/** The provisioner's own 503, passed on by nginx, which stamps its Server header on it. */
export const PROVISIONER_503_BEHIND_NGINX: ProxyPage = {
  status: 503,
  body: '{"message":"too busy, try again"}',
  contentType: 'application/json',
  headers: { server: 'nginx/1.24.0', 'retry-after': '2' },
};
