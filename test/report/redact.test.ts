import { describe, expect, it } from 'vitest';
import { REDACTED, redactBodyText, redactHeaders, redactJson } from '../../src/core/redact.js';

describe('redactJson', () => {
  it('redacts values under secret-looking keys at any depth, matching inside longer names', () => {
    const value = {
      outcome: 'succeeded',
      results: [
        {
          id: 'shop-db',
          outputs: {
            dbPassword: 'hunter2',
            client_secret: 's',
            accessToken: 't',
            'x-api-key': 'k',
            apiKey: 'k2',
            Authorization: 'Bearer x',
            credentials: { user: 'u', pass: 'p' },
            privateKeyPem: '-----BEGIN',
            passwd: 'p',
            host: 'db.internal',
            port: 5432,
          },
        },
      ],
    };
    expect(redactJson(value)).toEqual({
      outcome: 'succeeded',
      results: [
        {
          id: 'shop-db',
          outputs: {
            dbPassword: REDACTED,
            client_secret: REDACTED,
            accessToken: REDACTED,
            'x-api-key': REDACTED,
            apiKey: REDACTED,
            Authorization: REDACTED,
            credentials: REDACTED,
            privateKeyPem: REDACTED,
            passwd: REDACTED,
            host: 'db.internal',
            port: 5432,
          },
        },
      ],
    });
  });

  it('keeps null and empty secrets visible, and does not change the input', () => {
    const value = { token: null, password: '', secret: 'x' };
    expect(redactJson(value)).toEqual({ token: null, password: '', secret: REDACTED });
    expect(value.secret).toBe('x');
  });

  it('redacts passwords inside connection URLs', () => {
    expect(redactJson({ url: 'postgres://app:hunter2@db:5432/shop' })).toEqual({ url: `postgres://app:${REDACTED}@db:5432/shop` });
    expect(redactJson('see https://example.net/a@b')).toBe('see https://example.net/a@b');
  });

  it('keeps a __proto__ key as a plain key', () => {
    const parsed = JSON.parse('{"__proto__": {"token": "t"}, "a": 1}') as unknown;
    const redacted = redactJson(parsed) as Record<string, unknown>;
    expect(Object.getPrototypeOf(redacted)).toBe(Object.prototype);
    expect(JSON.stringify(redacted)).toBe(`{"__proto__":{"token":"${REDACTED}"},"a":1}`);
  });
});

describe('redactHeaders', () => {
  it('redacts credential headers only', () => {
    expect(
      redactHeaders({
        authorization: 'Bearer abc',
        cookie: 'a=b',
        'x-api-key': 'k',
        'x-auth-token': 't',
        'x-client-secret': 's',
        'content-type': 'application/json',
      }),
    ).toEqual({
      authorization: REDACTED,
      cookie: REDACTED,
      'x-api-key': REDACTED,
      'x-auth-token': REDACTED,
      'x-client-secret': REDACTED,
      'content-type': 'application/json',
    });
  });
});

describe('redactBodyText', () => {
  it('returns JSON text untouched when nothing is secret, and re-serialises it when something is', () => {
    expect(redactBodyText('{ "a": 1 }')).toBe('{ "a": 1 }');
    expect(redactBodyText('{ "token": "t" }')).toBe(`{"token":"${REDACTED}"}`);
    expect(redactBodyText('not json, mysql://root:pw@db')).toBe(`not json, mysql://root:${REDACTED}@db`);
  });

  it('shows JSON nested too deep to walk as the text it is', () => {
    const deep = `${'['.repeat(20_000)}"mysql://root:pw@db"${']'.repeat(20_000)}`;
    expect(redactBodyText(deep)).toBe(deep.replace(':pw@', `:${REDACTED}@`));
  });
});
