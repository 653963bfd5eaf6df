import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { curlFor } from '../../src/report/curl.js';
import type { Exchange } from '../../src/transcript/exchange.js';
import { OP_ID, TranscriptBuilder } from '../support/transcript-builder.js';

/** Runs the command in bash with curl replaced by a function that prints each argument NUL-terminated. */
function argumentsCurlWouldGet(command: string, env: Record<string, string> = {}): string[] {
  const script = `curl() { for a in "$@"; do printf '%s\\0' "$a"; done; }\n${command}`;
  // stdin from /dev/null: on a socket (node's default pipe) bash takes itself for an ssh session and reads ~/.bashrc.
  const out = execFileSync('bash', ['-c', script], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return out.toString('utf8').split('\0').slice(0, -1);
}

function withHeaders(exchange: Exchange, headers: Record<string, string>): Exchange {
  return { ...exchange, request: { ...exchange.request, headers: { ...exchange.request.headers, ...headers } } };
}

describe('curlFor', () => {
  it('repeats a POST with its body, quoting a single quote so the shell passes the exact bytes', () => {
    const body = `{"changes":[{"id":"o'brien","note":"it's $HOME \`id\` \\\\ \\"q\\" !x\\nline"}]}\n`;
    const exchange = new TranscriptBuilder().post('apply', { requestBody: body });
    const command = curlFor(exchange, false);
    expect(command).toMatch(/^curl -sS -i -X POST 'http:\/\/127\.0\.0\.1:8080\/apply' -H 'Content-Type: application\/json' --data-binary '/);
    expect(argumentsCurlWouldGet(command)).toEqual([
      '-sS',
      '-i',
      '-X',
      'POST',
      'http://127.0.0.1:8080/apply',
      '-H',
      'Content-Type: application/json',
      '--data-binary',
      body,
    ]);
  });

  it('writes a GET plainly', () => {
    const exchange = new TranscriptBuilder().read(OP_ID, { status: 200, body: {} });
    expect(curlFor(exchange, false)).toBe(`curl -sS -i 'http://127.0.0.1:8080/operations/${OP_ID}'`);
  });

  it('takes secret headers from environment variables unless secrets are shown', () => {
    const exchange = withHeaders(new TranscriptBuilder().read(OP_ID, { status: 200, body: {} }), {
      authorization: 'Bearer real-token',
      'x-api-key': 'k',
      host: '127.0.0.1:8080',
    });
    const hidden = curlFor(exchange, false);
    expect(hidden).toContain('-H "Authorization: $PROVISIONER_AUTHORIZATION"');
    expect(hidden).toContain('-H "X-Api-Key: $PROVISIONER_X_API_KEY"');
    expect(hidden).not.toContain('real-token');
    expect(hidden).not.toContain('Host');
    const args = argumentsCurlWouldGet(hidden, { PROVISIONER_AUTHORIZATION: 'Bearer from-env', PROVISIONER_X_API_KEY: 'key' });
    expect(args).toContain('Authorization: Bearer from-env');
    expect(args).toContain('X-Api-Key: key');
    expect(curlFor(exchange, true)).toContain(`-H 'Authorization: Bearer real-token'`);
  });

  it('refers to the change set file for a long body', () => {
    const body = JSON.stringify({ changes: Array.from({ length: 200 }, (_, i) => ({ id: `db-${i}`, environment: 'test' })) });
    expect(Buffer.byteLength(body)).toBeGreaterThan(4096);
    const exchange = new TranscriptBuilder().post('plan', { requestBody: body, changeSet: 'big-set' });
    expect(curlFor(exchange, false)).toBe(
      `curl -sS -i -X POST 'http://127.0.0.1:8080/plan' -H 'Content-Type: application/json' --data-binary @big-set.json`,
    );
  });

  it('does not print secrets of the body: the change set file stands in for it', () => {
    const exchange = new TranscriptBuilder().post('apply', { requestBody: '{"changes":[],"dbPassword":"hunter2"}' });
    const hidden = curlFor(exchange, false);
    expect(hidden).not.toContain('hunter2');
    expect(hidden.endsWith('--data-binary @shop-db.json')).toBe(true);
    expect(argumentsCurlWouldGet(curlFor(exchange, true)).at(-1)).toBe('{"changes":[],"dbPassword":"hunter2"}');
  });

  it('sends a probe body that starts with @ as data, not as a file name', () => {
    const exchange = new TranscriptBuilder().badInput('plan', { requestBody: '@/etc/passwd' });
    const command = curlFor(exchange, false);
    expect(command).toContain(`--data-raw '@/etc/passwd'`);
    expect(argumentsCurlWouldGet(command).slice(-2)).toEqual(['--data-raw', '@/etc/passwd']);
  });
});
