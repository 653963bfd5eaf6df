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

  it('fix no property time limit: the budget sets it where they set one, and certify derives it from maxOperationDuration', () => {
    for (const profile of Object.values(PROFILES)) expect(profile.values['property-time-limit'], profile.name).toBeUndefined();
  });

  it('leave quick and ci properties what the budget leaves, and give certify a limit that fits its cases', async () => {
    const quick = await resolveRunOptions({ ...FLAGS, profile: 'quick' });
    const ci = await resolveRunOptions({ ...FLAGS, profile: 'ci' });
    expect([quick.timeLimit?.text, quick.properties.timeLimit]).toEqual(['PT2M', undefined]);
    expect([ci.timeLimit?.text, ci.properties.timeLimit]).toEqual(['PT15M', undefined]);
    // The reference's registration holds PT1M; certify polls every PT10S with a PT10S answer timeout.
    expect((await resolveRunOptions(FLAGS)).properties.timeLimit).toMatchObject({ text: 'PT3M', ms: 180_000, origin: { source: 'derived' } });
  });
});

describe('--property-time-limit', () => {
  it('says whether it was given, so that a run with a budget derives it only when it was not', async () => {
    expect(propertyConfig({ ...PROPERTY_FLAGS, propertyTimeLimit: 'PT20S' }, undefined).timeLimit).toEqual({ text: 'PT20S', ms: 20_000, origin: { source: 'given' } });
    expect(propertyConfig(PROPERTY_FLAGS, undefined).timeLimit).toBeUndefined();
    // Not given, with a run-wide limit: absent, so that the run's budget decides it when the properties start.
    expect((await resolveRunOptions({ ...FLAGS, timeLimit: 'PT5M' })).properties.timeLimit).toBeUndefined();
    // Given, with a run-wide limit: kept.
    expect((await resolveRunOptions({ ...FLAGS, timeLimit: 'PT5M', propertyTimeLimit: 'PT4M' })).properties.timeLimit).toMatchObject({ text: 'PT4M', origin: { source: 'given' } });
  });

  it('is a usage error naming the flag when it is not a duration', () => {
    expect(() => propertyConfig({ ...PROPERTY_FLAGS, propertyTimeLimit: 'soon' }, undefined)).toThrow(/^--property-time-limit: /);
  });
});
