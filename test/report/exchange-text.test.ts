import { describe, expect, it } from 'vitest';
import { renderExchange } from '../../src/report/exchange-text.js';
import { createStyle } from '../../src/report/style.js';
import { OP_ID, T0, TranscriptBuilder } from '../support/transcript-builder.js';
import { HTML_PAGE_WITH_STYLE } from './outcome-fixture.js';

const plain = { startedAt: T0, showSecrets: false, style: createStyle(false) };

describe('renderExchange', () => {
  it('shows the request and answer on one line, then the headers that matter and the body', () => {
    const exchange = new TranscriptBuilder().post('apply', { at: 1234, took: 38, status: 202, body: { operationId: OP_ID }, headers: { location: '/operations/x', 'x-other': 'no' } });
    expect(renderExchange(exchange, plain)).toBe(
      [
        '#1  +1.234s  POST http://127.0.0.1:8080/apply  → 202 (38ms)  shop-db',
        '    content-type: application/json',
        '    location: /operations/x',
        '    {',
        `      "operationId": "${OP_ID}"`,
        '    }',
      ].join('\n'),
    );
  });

  it('shows an HTML error page as text and marks probes', () => {
    const exchange = new TranscriptBuilder().read(OP_ID, { at: 50, status: 503, body: HTML_PAGE_WITH_STYLE, contentType: 'text/html', tag: 'read-after-final' });
    const text = renderExchange(exchange, plain);
    expect(text.split('\n')[0]).toBe(`#1  +0.050s  GET http://127.0.0.1:8080/operations/${OP_ID}  → 503 (5ms)  probe: read after final`);
    expect(text).toContain('    Service Unavailable');
    expect(text).toContain('    The gateway could not reach the provisioner in time.');
    expect(text).not.toMatch(/<|font-family/);
  });

  it('shows a transport error with the time it took', () => {
    const exchange = new TranscriptBuilder().read(OP_ID, { at: 2000, took: 10_000, error: { kind: 'timeout', message: 'headers timeout' } });
    expect(renderExchange(exchange, plain)).toBe(`#1  +2.000s  GET http://127.0.0.1:8080/operations/${OP_ID}  ✗ timeout after 10.0s\n    headers timeout`);
  });

  it('cuts long bodies for the console and redacts secrets in JSON', () => {
    const exchange = new TranscriptBuilder().read(OP_ID, { status: 200, body: { outcome: 'succeeded', description: 'y'.repeat(2000), results: [], token: 'abc' } });
    const text = renderExchange(exchange, plain);
    expect(text).toMatch(/… \([\d,]+ more characters\)/);
    expect(text).not.toContain('abc');
    expect(renderExchange(exchange, { ...plain, showSecrets: true, bodyLimit: 5000 })).toContain('"token": "abc"');
  });
});
