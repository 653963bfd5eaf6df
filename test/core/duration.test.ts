import { describe, expect, it } from 'vitest';
import { formatMs, parseDuration, parseMaxOperationDuration, parsePositiveDuration } from '../../src/core/duration.js';

describe('ISO 8601 durations', () => {
  it.each([
    ['PT0.5S', 500],
    ['PT10S', 10_000],
    ['PT5M', 300_000],
    ['PT1H', 3_600_000],
    ['P1D', 86_400_000],
    ['PT1M30S', 90_000],
  ])('%s is %d ms', (text, ms) => {
    expect(parseDuration(text)).toEqual({ ok: true, ms, text });
  });

  it.each(['5 minutes', '', 'PT', 'P', '10'])('rejects %j', (text) => {
    expect(parseDuration(text).ok).toBe(false);
  });

  it('says that the letters are upper case when only their case is wrong', () => {
    expect(parseDuration('pt5m')).toEqual({ ok: false, error: '"pt5m" is not an ISO 8601 duration: its letters are upper case (PT5M)' });
    expect(parseDuration('5 minutes')).toEqual({ ok: false, error: '"5 minutes" is not an ISO 8601 duration (write e.g. PT0.5S, PT10S or PT5M)' });
  });

  it('requires more than zero for intervals and timeouts', () => {
    expect(parsePositiveDuration('PT0S').ok).toBe(false);
    expect(parsePositiveDuration('-PT5S').ok).toBe(false);
    expect(parsePositiveDuration('PT-5S').ok).toBe(false);
    expect(parsePositiveDuration('PT0.1S').ok).toBe(true);
  });

  it('bounds maxOperationDuration by PT30M', () => {
    expect(parseMaxOperationDuration('PT30M').ok).toBe(true);
    expect(parseMaxOperationDuration('PT30M1S').ok).toBe(false);
    expect(parseMaxOperationDuration('P1M').ok).toBe(false);
    expect(parseMaxOperationDuration('P0D').ok).toBe(false);
  });
});

describe('formatMs', () => {
  it.each([
    [850, '850ms'],
    [4200, '4.2s'],
    [59_960, '1m00s'],
    [119_600, '2m00s'],
    [185_000, '3m05s'],
  ])('%d ms reads %s', (ms, text) => {
    expect(formatMs(ms)).toBe(text);
  });
});
