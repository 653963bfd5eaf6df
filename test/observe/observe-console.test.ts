import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ObservationNews, type ObserveEvent } from '../../src/observe/observation-news.js';
import { createObserveConsole } from '../../src/observe/observe-console.js';
import type { RuleBreaks } from '../../src/observe/rule-breaks.js';
import { SUMMARY_EVERY_MS } from '../../src/observe/summary-pacer.js';
import type { ProgressStream } from '../../src/report/progress.js';
import { SecretMask } from '../../src/report/secret-mask.js';

const START = Date.UTC(2026, 0, 5, 9, 0, 0);

/** A stream that keeps what is written; a terminal of `columns` when given. */
function screen(columns?: number): ProgressStream & { text: () => string } {
  let written = '';
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      written += chunk.toString();
      done();
    },
  }) as Writable & { isTTY?: boolean; columns?: number };
  if (columns !== undefined) {
    stream.isTTY = true;
    stream.columns = columns;
  }
  return Object.assign(stream, { text: () => written });
}

const firstBreak = (count: number, operationId = '7b0c3f1e-0d4e-4d7a-9a53-2f1b8e6c1d20'): RuleBreaks => ({
  first: [{ ruleId: 'operation.no-in-progress-after-final', level: 'MUST', status: 'fail', operationId, exchange: 17, note: 'read sent 40ms after the first final answer arrived said in_progress' }],
  counts: { 'operation.no-in-progress-after-final': count },
});
const laterBreak: RuleBreaks = { first: [], counts: { 'operation.no-in-progress-after-final': 1 } };

/** An observation's news printed by a console, both on one fake clock. */
function observed(stream: ProgressStream, mask = new SecretMask()) {
  let now = START;
  let news: ObservationNews | undefined;
  const printer = createObserveConsole(stream, { color: false, mask, progress: () => news?.progress(), now: () => now, tickMs: 0 });
  const events: ObserveEvent[] = [];
  news = new ObservationNews(START, mask, () => now, (event) => {
    events.push(event);
    printer.event(event);
  });
  const judging = news.judging(false);
  return {
    printer,
    news,
    judging,
    events,
    advance(ms: number): void {
      now += ms;
      printer.tick();
    },
  };
}

describe('observe tells as it runs, in a log', () => {
  it('names the rule, its level, the operation and the exchange number at the first break, and prints no line for later ones', () => {
    const stream = screen();
    const { judging, news, events } = observed(stream);
    judging.breaks(firstBreak(1));
    const lines = stream.text().split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\] observe: MUST rule operation\.no-in-progress-after-final broken at exchange #17, operation 7b0c3f1e-0d4e-4d7a-9a53-2f1b8e6c1d20: read sent 40ms after the first final answer arrived said in_progress \(its first break; later ones are counted\)$/);
    judging.breaks(laterBreak);
    judging.breaks(laterBreak);
    expect(stream.text().split('\n').filter(Boolean)).toHaveLength(1);
    expect(events).toHaveLength(1);
    expect(news.progress().broken).toEqual({ 'operation.no-in-progress-after-final': 3 });
  });

  it('prints a summary at most every 30 s when something changed, with the counts, and nothing while idle', () => {
    const stream = screen();
    const { judging, news, advance } = observed(stream);
    const lines = (): string[] => stream.text().split('\n').filter(Boolean);
    advance(SUMMARY_EVERY_MS);
    expect(stream.text()).toBe('');
    for (let i = 0; i < 3; i++) news.passed({ sentAt: START, endedAt: START + 10, status: 202 });
    judging.operations({ followed: 3, open: 1, ended: 2 });
    judging.breaks(firstBreak(2));
    // The interval since the last summary is over: the next check prints one.
    advance(5_000);
    expect(lines()).toHaveLength(2);
    expect(lines()[1]).toMatch(/observe: observing for 35\.0s: 3 exchanges; operations: 3 followed, 1 open, 2 ended; rules broken: operation\.no-in-progress-after-final ×2$/);
    news.passed({ sentAt: START, endedAt: START + 10, status: 200 });
    advance(5_000);
    advance(20_000);
    expect(lines()).toHaveLength(2);
    advance(5_000);
    expect(lines()).toHaveLength(3);
    expect(lines()[2]).toMatch(/observing for 1m05s: 4 exchanges;/);
    // Nothing changed since: no line.
    for (let i = 0; i < 12; i++) advance(5_000);
    expect(lines()).toHaveLength(3);
  });

  it('says when the provisioner stopped answering and when it answers again', () => {
    const stream = screen();
    const { news, events } = observed(stream);
    for (let at = 0; at <= 12_000; at += 4_000) news.passed({ sentAt: START + at, endedAt: START + at + 1, error: { kind: 'refused', message: 'connect ECONNREFUSED 10.0.0.7:8443' } });
    news.passed({ sentAt: START + 20_000, endedAt: START + 20_001, status: 200 });
    expect(events.map((event) => event.kind)).toEqual(['upstream-down', 'upstream-up']);
    const lines = stream.text().split('\n').filter(Boolean);
    expect(lines[0]).toMatch(/observe: the provisioner stopped answering: 4 calls in a row failed over 12\.0s, since \d\d:\d\d:\d\d \(the latest: refused: connect ECONNREFUSED 10\.0\.0\.7:8443\)$/);
    expect(lines[1]).toMatch(/observe: the provisioner answers again \(200\) after 20\.0s; 4 calls failed meanwhile$/);
  });

  it('masks every line', () => {
    const stream = screen();
    const mask = new SecretMask().add('s3cr3t-token-value');
    const { judging, printer } = observed(stream, mask);
    judging.breaks({ first: [{ ...firstBreak(1).first[0]!, note: 'the body echoed s3cr3t-token-value' }], counts: { 'operation.no-in-progress-after-final': 1 } });
    printer.message('observe: failed with s3cr3t-token-value');
    expect(stream.text()).not.toContain('s3cr3t-token-value');
    expect(stream.text()).toContain('the body echoed');
  });
});

describe('observe tells as it runs, on a terminal', () => {
  it('redraws one live line with the counts, prints events above it, every line cut to the width', () => {
    const stream = screen(60);
    const { judging, news, advance, printer } = observed(stream);
    news.passed({ sentAt: START, endedAt: START + 10, status: 202 });
    judging.operations({ followed: 1, open: 1, ended: 0 });
    advance(1_000);
    // Cut to the terminal's 60 columns, less one.
    expect(stream.text()).toBe('⠙ observing 1.0s · 1 exchange · operations 1 followed, 1 o…');
    judging.breaks(firstBreak(1));
    const text = stream.text();
    // The live line is erased, the event printed and kept, the live line drawn again below it.
    const event = text.slice(text.indexOf('\u001b[J') + 3).split('\n')[0]!;
    expect(event).toMatch(/^\d\d:\d\d:\d\d MUST rule operation\.no-in-progress-after-final br…$/);
    expect(event.length).toBeLessThanOrEqual(59);
    for (const line of text.split(/\n|\r|\u001b\[J/)) expect([...line.replace(/\u001b\[\d+m/g, '')].length).toBeLessThanOrEqual(59);
    expect(text.endsWith('\n')).toBe(false);
    printer.stop();
    expect(stream.text().endsWith('\r\u001b[J')).toBe(true);
  });

  it('names the operation by a short id, so that a line of a wide terminal keeps the exchange and the note', () => {
    const stream = screen(120);
    const { judging } = observed(stream);
    judging.breaks(firstBreak(1));
    expect(stream.text()).toMatch(/^\d\d:\d\d:\d\d MUST rule operation\.no-in-progress-after-final broken at exchange #17, operation 7b0c…1d20: read sent 40ms af…\n$/);
  });
});
