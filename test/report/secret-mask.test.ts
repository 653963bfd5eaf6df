import { describe, expect, it } from 'vitest';
import { numberedMask } from '../../src/core/redact.js';
import { SecretMask } from '../../src/report/secret-mask.js';
import { xmlText } from '../../src/report/xml-text.js';
import { escapeHtml } from '../../src/report/html/escape.js';
import { Transcript } from '../../src/transcript/transcript.js';
import { OP_ID, TranscriptBuilder } from '../support/transcript-builder.js';

describe('a secret mask', () => {
  it('hides a header value and the credential after its scheme, inside longer text too', () => {
    const mask = new SecretMask().addHeader('authorization', 'Bearer tok-123456');
    expect(mask.text('sent Authorization: Bearer tok-123456 to the target')).toBe('sent Authorization: [redacted] to the target');
    expect(mask.text('the token tok-123456 was echoed')).toBe('the token [redacted] was echoed');
  });

  it('hides the beginning of a secret that a cut left before its …', () => {
    const mask = new SecretMask().addHeader('x-api-key', 'key-abcdefghijkl');
    expect(mask.text('note: key-abcd…')).toBe('note: [redacted]…');
    expect(mask.text('a plain cut…')).toBe('a plain cut…');
  });

  it('keeps JSON, XML and HTML well formed when a secret holds quotes and backslashes', () => {
    const secret = 'se"cr\\et<&>\'42';
    const mask = new SecretMask().addHeader('x-api-key', secret);
    const json = JSON.stringify({ echo: `key=${secret}`, nested: JSON.stringify({ key: secret }) });
    const maskedJson = mask.json(json);
    expect(JSON.parse(maskedJson)).toEqual({ echo: 'key=[redacted]', nested: JSON.stringify({ key: '[redacted]' }) });
    expect(mask.xml(`<a b="${xmlText(secret)}">${xmlText(`x ${secret} y`)}</a>`)).toBe('<a b="[redacted]">x [redacted] y</a>');
    expect(mask.html(`<p>${escapeHtml(JSON.stringify({ key: secret }))}</p>`)).toBe(`<p>${escapeHtml('{"key":"')}[redacted]${escapeHtml('"}')}</p>`);
    expect(mask.text(`-H 'X-Api-Key: ${secret.replace(/'/g, "'\\''")}'`)).toBe("-H 'X-Api-Key: [redacted]'");
  });

  it('hides a short value only as a header\'s whole value or a field of its own', () => {
    const mask = new SecretMask().addHeader('x-env', 'dev');
    expect(mask.text('X-Env: dev')).toBe('X-Env: [redacted]');
    expect(mask.json('{"x-env":"dev","other":"dev"}')).toBe('{"x-env":"[redacted]","other":"dev"}');
    expect(mask.text('developers deploy to dev')).toBe('developers deploy to dev');
    expect(mask.field('dev')).toBe('[redacted]');
    expect(mask.field('device')).toBe('device');
  });

  it('learns the values a run saw under secret-looking keys and in credential headers', () => {
    const b = new TranscriptBuilder();
    b.post('apply', { status: 202, body: { operationId: OP_ID }, requestBody: JSON.stringify({ changes: [], dbPassword: 'hunter2-long' }) });
    b.read(OP_ID, { body: { outcome: 'succeeded', description: 'done', results: [{ outputs: { apiToken: 'tok-from-output', url: 'postgres://app:pw-in-url@db/x' } }] } });
    const mask = new SecretMask().learnExchanges(b.transcript.exchanges);
    expect(mask.text('hunter2-long tok-from-output pw-in-url')).toBe('[redacted] [redacted] [redacted]');
  });

  it('learns each headers object and parsed body the client shares between exchanges once, and every one that differs', () => {
    let walks = 0;
    const body = { outcome: 'in_progress', get apiToken(): string {
      walks++;
      return 'tok-shared-body';
    } };
    const json = { ok: true as const, value: body };
    const headers = { 'x-auth-token': 'hdr-shared-token' };
    const response = (h: Record<string, string>, j: typeof json | { ok: true; value: unknown }) => ({ status: 200, headers: h, body: '{}', bodyBytes: 2, truncated: false, json: j });
    const shared = response(headers, json);
    const transcript = new Transcript();
    const read = (answer: ReturnType<typeof response>) =>
      transcript.record({ suite: 'test', tag: 'poll', probe: false, changeSet: undefined, operationId: OP_ID, repeatOf: undefined, request: { method: 'GET', url: 'http://127.0.0.1/x', headers: {} }, sentAt: 1, respondedAt: 2, endedAt: 2, response: answer, error: undefined });
    read(shared);
    read(shared);
    read(response(headers, { ok: true, value: { password: 'pass-other-body' } }));
    read(response({ 'x-auth-token': 'hdr-other-token' }, json));
    const mask = new SecretMask().learnExchanges(transcript.exchanges);
    expect(walks).toBe(1);
    expect(mask.text('tok-shared-body hdr-shared-token pass-other-body hdr-other-token')).toBe('[redacted] [redacted] [redacted] [redacted]');
  });

  it('keeps distinct secrets distinct under numbered placeholders', () => {
    const mask = new SecretMask().addHeader('x-a', 'first-secret').addHeader('x-b', 'second-secret').withPlaceholder(numberedMask());
    expect(mask.text('second-secret first-secret second-secret')).toBe('[redacted #1] [redacted #2] [redacted #1]');
  });

  it('hides nothing for --show-secrets', () => {
    const mask = SecretMask.none().addHeader('authorization', 'Bearer tok-123456');
    expect(mask.text('Bearer tok-123456')).toBe('Bearer tok-123456');
    expect(mask.showsSecrets).toBe(true);
  });
});
