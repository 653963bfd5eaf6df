import { describe, expect, it } from 'vitest';
import { resolveRunOptions, type RunFlags } from '../../src/config/run-options.js';
import { resolvePropertyOptions } from '../../src/config/property-options.js';
import { PROFILES } from '../../src/config/profiles.js';
import { parsePositiveDuration } from '../../src/core/duration.js';
import { UsageError } from '../../src/errors.js';
import { PROPERTIES } from '../../suites/properties/index.js';

const FLAGS: RunFlags = {
  url: 'http://127.0.0.1:9',
  pollInterval: 'PT1S',
  answerTimeout: 'PT10S',
  changesPath: '/changes',
  planOnly: false,
  strict: false,
  showSecrets: false,
};

const PROPERTY_FLAGS = { properties: true, allowApplyGenerated: false };

describe('--time-limit', () => {
  it('is absent unless given', async () => {
    expect((await resolveRunOptions(FLAGS)).timeLimit).toBeUndefined();
  });

  it('is an ISO 8601 duration kept as given and in milliseconds', async () => {
    expect((await resolveRunOptions({ ...FLAGS, timeLimit: 'PT1M30S' })).timeLimit).toEqual({ ms: 90_000, text: 'PT1M30S' });
  });

  it('is a usage error naming the flag when it is not a duration above zero', async () => {
    for (const value of ['ten minutes', 'PT0S', '-PT5M', '']) {
      const attempt = resolveRunOptions({ ...FLAGS, timeLimit: value });
      await expect(attempt, value).rejects.toBeInstanceOf(UsageError);
      await expect(resolveRunOptions({ ...FLAGS, timeLimit: value }), value).rejects.toThrow(/^--time-limit: /);
    }
  });
});

describe('profiles and the time limit', () => {
  it('bound quick and ci runs, and leave certification unbounded so that it judges every rule', () => {
    expect(PROFILES.quick.values['time-limit']).toBe('PT2M');
    expect(PROFILES.ci.values['time-limit']).toBe('PT15M');
    expect(PROFILES.certify.values['time-limit']).toBeUndefined();
    for (const profile of Object.values(PROFILES)) {
      const limit = profile.values['time-limit'];
      if (limit !== undefined) expect(parsePositiveDuration(limit).ok, profile.name).toBe(true);
    }
  });

  it('leave the property time limit to the budget where they set one', () => {
    expect(PROFILES.quick.values['property-time-limit']).toBeUndefined();
    expect(PROFILES.ci.values['property-time-limit']).toBeUndefined();
    expect(PROFILES.certify.values['property-time-limit']).toBe('PT10M');
  });
});

describe('--property-time-limit', () => {
  it('says whether it was given, so that a run with a budget derives it only when it was not', () => {
    const given = resolvePropertyOptions({ ...PROPERTY_FLAGS, propertyTimeLimit: 'PT20S' }, PROPERTIES);
    expect(given).toMatchObject({ timeLimitMs: 20_000, timeLimitGiven: true });
    const left = resolvePropertyOptions(PROPERTY_FLAGS, PROPERTIES);
    expect(left).toMatchObject({ timeLimitMs: 60_000, timeLimitGiven: false });
  });

  it('is a usage error naming the flag when it is not a duration', () => {
    expect(() => resolvePropertyOptions({ ...PROPERTY_FLAGS, propertyTimeLimit: 'soon' }, PROPERTIES)).toThrow(/^--property-time-limit: /);
  });
});
