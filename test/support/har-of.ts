import type { Exchange } from '../../src/transcript/exchange.js';

/** Exchanges as a HAR 1.2 document, as a control plane's recorder would write them: bodies base64, as some recorders keep every body. */
export function harOf(exchanges: readonly Exchange[]): string {
  const headers = (record: Record<string, string>): Array<{ name: string; value: string }> => Object.entries(record).map(([name, value]) => ({ name, value }));
  return JSON.stringify({
    log: {
      version: '1.2',
      creator: { name: 'stand-in', version: '1' },
      entries: exchanges.map((exchange) => ({
        startedDateTime: new Date(exchange.sentAt).toISOString(),
        time: exchange.endedAt - exchange.sentAt,
        request: {
          method: exchange.request.method,
          url: exchange.request.url,
          httpVersion: 'HTTP/1.1',
          headers: headers(exchange.request.headers),
          ...(exchange.request.body !== undefined && { postData: { mimeType: 'application/json', text: exchange.request.body } }),
        },
        response: {
          status: exchange.response?.status ?? 0,
          headers: headers(exchange.response?.headers ?? {}),
          content: { size: exchange.response?.bodyBytes ?? 0, mimeType: exchange.response?.headers['content-type'] ?? '', text: Buffer.from(exchange.response?.body ?? '').toString('base64'), encoding: 'base64' },
        },
        timings: { send: 0, wait: (exchange.respondedAt ?? exchange.endedAt) - exchange.sentAt, receive: 0 },
      })),
    },
  });
}
