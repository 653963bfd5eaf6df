import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { propertyConfig, resolveRunConfig } from '../../src/config/run-config.js';
import type { RunOptions } from '../../src/config/run-options.js';
import { PROFILES } from '../../src/config/profiles.js';
import { parsePositiveDuration } from '../../src/core/duration.js';
import { UsageError } from '../../src/errors.js';

// The certify profile sets no time limit: what is resolved is what was given. No config file is found in an empty folder.
const FLAGS: RunOptions = { url: 'http://127.0.0.1:9', profile: 'certify', registration: 'fixtures/registrations/reference.json' };
const CWD = mkdtempSync(join(tmpdir(), 'pc-time-limit-'));

function resolveRunOptions(options: RunOptions) {
  return resolveRunConfig({ options, env: {}, cwd: CWD });
}

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
    const runLimit = { text: 'PT5M', ms: 300_000 };
    expect(propertyConfig({ ...PROPERTY_FLAGS, propertyTimeLimit: 'PT20S' }, undefined, runLimit).timeLimit).toEqual({ text: 'PT20S', ms: 20_000 });
    // Not given, with a run-wide limit: absent, so that the run's budget decides it when the properties start.
    expect(propertyConfig(PROPERTY_FLAGS, undefined, runLimit).timeLimit).toBeUndefined();
    // Not given, without a run-wide limit: the built-in one, decided here and nowhere else.
    expect(propertyConfig(PROPERTY_FLAGS, undefined, undefined).timeLimit).toEqual({ text: 'PT60S', ms: 60_000 });
  });

  it('is a usage error naming the flag when it is not a duration', () => {
    expect(() => propertyConfig({ ...PROPERTY_FLAGS, propertyTimeLimit: 'soon' }, undefined, undefined)).toThrow(/^--property-time-limit: /);
  });
});
