import { describe, expect, it } from 'vitest';
import { FirstWaveWatch, MIN_WAVE, type WaveDecision } from '../../src/runner/first-wave.js';
import { unreachableHints, unreachableSentences } from '../../src/runner/unreachable-text.js';
import { classifyTransportError } from '../../src/client/transport-error.js';
import type { Exchange } from '../../src/transcript/exchange.js';
import { TranscriptBuilder } from '../support/transcript-builder.js';

const REFUSED = { kind: 'refused', message: 'connect ECONNREFUSED 127.0.0.1:1' } as const;

function watched(): { wave: FirstWaveWatch; decisions: WaveDecision[] } {
  const decisions: WaveDecision[] = [];
  return { wave: new FirstWaveWatch((decision) => decisions.push(decision)), decisions };
}

describe('the first wave', () => {
  it('decides unreachable once every call in flight when the first ended got a transport error', () => {
    const t = new TranscriptBuilder();
    const { wave, decisions } = watched();
    for (let i = 0; i < 5; i++) wave.sent();
    for (let i = 0; i < 4; i++) wave.end(t.post('plan', { error: REFUSED }));
    expect(decisions).toEqual([]);
    // Calls sent after the wave closed do not widen it.
    wave.sent();
    wave.end(t.post('apply', { error: { kind: 'reset', message: 'socket hang up' } }));
    expect(decisions).toEqual(['unreachable']);
  });

  it('goes on as usual when any call of the wave was answered, or only timed out', () => {
    const t = new TranscriptBuilder();
    for (const other of [t.post('plan', { status: 503, body: {} }), t.post('plan', { error: { kind: 'timeout', message: 'no complete answer within 10 ms' } })]) {
      const { wave, decisions } = watched();
      for (let i = 0; i < 4; i++) wave.sent();
      wave.end(t.post('plan', { error: REFUSED }));
      wave.end(other);
      wave.end(t.post('plan', { error: REFUSED }));
      wave.end(t.post('plan', { error: REFUSED }));
      expect(decisions).toEqual(['go-on']);
    }
  });

  it(`waits for at least ${MIN_WAVE} calls when the first ended before others were sent`, () => {
    const t = new TranscriptBuilder();
    const { wave, decisions } = watched();
    wave.sent();
    wave.end(t.post('plan', { error: REFUSED }));
    wave.sent();
    wave.end(t.post('plan', { error: REFUSED }));
    expect(decisions).toEqual([]);
    wave.sent();
    wave.end(t.post('plan', { error: REFUSED }));
    expect(decisions).toEqual(['unreachable']);
  });

  it('counts a TLS handshake that failed as reaching nothing, and a stop of the run as no decision for unreachable', () => {
    const t = new TranscriptBuilder();
    const { wave, decisions } = watched();
    for (let i = 0; i < MIN_WAVE; i++) wave.sent();
    for (let i = 0; i < MIN_WAVE; i++) wave.end(t.post('plan', { error: classifyTransportError(Object.assign(new Error('ssl3_record.c:350'), { code: 'ERR_SSL_WRONG_VERSION_NUMBER' }), false, 1000) }));
    expect(decisions).toEqual(['unreachable']);
    const stopped = watched();
    stopped.wave.sent();
    stopped.wave.end(t.post('plan', { error: { kind: 'stopped', message: 'the run was stopped before an answer came' } }));
    expect(stopped.decisions).toEqual(['go-on']);
  });
});

describe('what a run whose target answered nothing says', () => {
  it('says what was tried, what every attempt got, and a hint', () => {
    const t = new TranscriptBuilder('http://127.0.0.1:1');
    const exchanges: Exchange[] = [t.post('plan', { error: REFUSED }), t.post('apply', { error: REFUSED }), t.read('8c5a4a0e-55d5-4b2a-9d1f-5b7f7a0f6c11', { error: REFUSED })];
    const sentences = unreachableSentences('http://127.0.0.1:1', exchanges);
    expect(sentences).toEqual([
      'the provisioner at http://127.0.0.1:1 never answered: 3 calls (POST /plan, POST /apply, GET /operations/{id}) ended in a transport error; the run stopped there and nothing was judged (KIT_TARGET_UNREACHABLE)',
      'every attempt got: refused: connect ECONNREFUSED 127.0.0.1:1',
      'hint: nothing listens at 127.0.0.1: is the provisioner running, on this host and port?',
    ]);
  });

  it('counts each kind of error when the attempts got different ones, and hints at each cause', () => {
    const t = new TranscriptBuilder('http://provisioner.invalid');
    const exchanges = [t.post('plan', { error: { kind: 'dns', message: 'getaddrinfo ENOTFOUND provisioner.invalid' } }), t.post('plan', { error: { kind: 'dns', message: 'getaddrinfo ENOTFOUND provisioner.invalid' } }), t.post('apply', { error: { kind: 'reset', message: 'socket hang up' } })];
    const sentences = unreachableSentences('http://provisioner.invalid', exchanges);
    expect(sentences[1]).toBe('the attempts got: dns: getaddrinfo ENOTFOUND provisioner.invalid (2); reset: socket hang up (1)');
    expect(unreachableHints('http://provisioner.invalid', exchanges)).toEqual([
      'the host name of provisioner.invalid does not resolve: check its spelling, or the DNS this machine uses',
      'provisioner.invalid closed every connection: a proxy or firewall in between, or a TLS port spoken to over http://',
    ]);
  });

  it('words OpenSSL’s wrong-version error as a plain-HTTP port, in one line', () => {
    const error = classifyTransportError(Object.assign(new Error('807C:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:ssl3_record.c:350:'), { code: 'ERR_SSL_WRONG_VERSION_NUMBER' }), false, 1000);
    expect(error).toEqual({ kind: 'other', message: 'TLS handshake failed (ERR_SSL_WRONG_VERSION_NUMBER): the port speaks plain HTTP: try http://' });
    const exchanges = [new TranscriptBuilder().post('plan', { error })];
    expect(unreachableHints('https://127.0.0.1:8080', exchanges)).toEqual(['the port speaks plain HTTP: try http://']);
    // The error's own words give the hint already: it is not said twice, and "other" names no kind.
    expect(unreachableSentences('https://127.0.0.1:8080', exchanges).slice(1)).toEqual(['every attempt got: TLS handshake failed (ERR_SSL_WRONG_VERSION_NUMBER): the port speaks plain HTTP: try http://']);
  });
});
