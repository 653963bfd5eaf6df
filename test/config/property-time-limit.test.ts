import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { propertyTimeLimitMs, timeBudgetOf } from '../../src/config/property-time-limit.js';
import { propertyTimeLimitAt } from '../../src/core/time-budget.js';
import { resolveRunConfig } from '../../src/config/run-config.js';
import type { RunOptions } from '../../src/config/run-options.js';
import { isoOfMs } from '../../src/core/property-time-limit.js';
import { ConfigError } from '../../src/errors.js';

const URL = 'http://127.0.0.1:9';

function emptyFolder(): string {
  return mkdtempSync(join(tmpdir(), 'pc-property-limit-'));
}

/** The reference's registration with another maxOperationDuration, as a provisioner whose work takes minutes registers. */
function registrationWith(maxOperationDuration: string): string {
  const file = join(emptyFolder(), 'registration.json');
  const registration = JSON.parse(readFileSync('fixtures/registrations/reference.json', 'utf8')) as Record<string, unknown>;
  writeFileSync(file, JSON.stringify({ ...registration, maxOperationDuration }));
  return file;
}

function resolve(options: RunOptions, cwd = emptyFolder()) {
  return resolveRunConfig({ options, env: {}, cwd });
}

async function refusal(attempt: Promise<unknown>): Promise<ConfigError> {
  const error = await attempt.then(() => undefined, (thrown: unknown) => thrown);
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigError;
}

const PT15M_CERTIFY: RunOptions = { url: URL, profile: 'certify', registration: registrationWith('PT15M') };

describe('the time limit one property case needs', () => {
  it('is the chain of operations, each with its answer timeout and two poll intervals', () => {
    const timing = { maxOperationDuration: { text: 'PT15M', ms: 900_000, source: 'registration' as const }, pollInterval: { text: 'PT10S', ms: 10_000 }, answerTimeout: { text: 'PT10S', ms: 10_000 } };
    expect(propertyTimeLimitMs(2, timing)).toBe(2 * (900_000 + 10_000 + 20_000));
    expect(propertyTimeLimitMs(1, timing)).toBe(930_000);
    expect(propertyTimeLimitMs(3, { ...timing, pollInterval: { text: 'PT0.1S', ms: 100 } })).toBe(3 * 910_200);
  });

  it('is written as ISO 8601 in hours, minutes and seconds', () => {
    expect(isoOfMs(1_860_000)).toBe('PT31M');
    expect(isoOfMs(22_400)).toBe('PT22.4S');
    expect(isoOfMs(3_723_500)).toBe('PT1H2M3.5S');
    expect(isoOfMs(3_600_000)).toBe('PT1H');
    expect(isoOfMs(0)).toBe('PT0S');
  });
});

describe('the property time limit of a run', () => {
  it('in certify with a PT15M registration fits two operations of it and the calls around them', async () => {
    const config = await resolve(PT15M_CERTIFY);
    expect(config.timeLimit).toBeUndefined();
    expect(config.properties.timeLimit).toEqual({
      text: 'PT31M',
      ms: 1_860_000,
      origin: { source: 'derived', chain: 2, maxOperationDuration: { text: 'PT15M', ms: 900_000, source: 'registration' } },
    });
  });

  it('counts three operations when generated change sets are applied', async () => {
    const config = await resolve({ ...PT15M_CERTIFY, allowApplyGenerated: true });
    expect(config.properties.timeLimit).toMatchObject({ text: 'PT46M30S', origin: { chain: 3 } });
  });

  it('is refused, naming the flag and what it needs, when it cannot fit one case of a given maxOperationDuration', async () => {
    const error = await refusal(resolve({ ...PT15M_CERTIFY, propertyTimeLimit: 'PT10M' }));
    expect(error.code).toBe('KIT_CONFIG');
    expect(error.message).toBe(
      '--property-time-limit: PT10M cannot fit one case of property/model-based-runs: its cases wait for 2 operations of up to PT15M (maxOperationDuration of the registration) one after another; give at least PT31M or leave it out',
    );
  });

  it('is refused from a config file too, against --max-operation-duration and with a run-wide time limit', async () => {
    const cwd = emptyFolder();
    writeFileSync(join(cwd, 'provisioner-conformance.config.yaml'), 'property-time-limit: PT10M\n');
    // ci: PT1S poll interval, PT10S answer timeout.
    const error = await refusal(resolve({ url: URL, maxOperationDuration: 'PT15M' }, cwd));
    expect(error.message).toBe(
      '--property-time-limit: PT10M cannot fit one case of property/model-based-runs: its cases wait for 2 operations of up to PT15M (given by --max-operation-duration) one after another; give at least PT30M24S or leave it out',
    );
  });

  it('names the one selected property it cannot fit', async () => {
    const error = await refusal(resolve({ ...PT15M_CERTIFY, property: 'malformed-json', propertyTimeLimit: 'PT15M' }));
    expect(error.message).toBe(
      '--property-time-limit: PT15M cannot fit one case of property/malformed-json: its cases wait for an operation of up to PT15M (maxOperationDuration of the registration); give at least PT15M30S or leave it out',
    );
  });

  it('is kept when it fits one case', async () => {
    expect((await resolve({ ...PT15M_CERTIFY, propertyTimeLimit: 'PT31M' })).properties.timeLimit).toEqual({ text: 'PT31M', ms: 1_860_000, origin: { source: 'given' } });
    expect((await resolve({ ...PT15M_CERTIFY, property: 'malformed-json', propertyTimeLimit: 'PT16M' })).properties.timeLimit).toMatchObject({ text: 'PT16M' });
    // No property runs: nothing to fit.
    expect((await resolve({ ...PT15M_CERTIFY, properties: false, propertyTimeLimit: 'PT1S' })).properties.timeLimit).toMatchObject({ text: 'PT1S' });
  });

  it('is kept when the work length is unknown: the PT30M default, or the reference with its own registration', async () => {
    const unknown = await resolve({ url: URL, propertyTimeLimit: 'PT5S' });
    expect(unknown.maxOperationDuration.source).toBe('default');
    expect(unknown.properties.timeLimit).toEqual({ text: 'PT5S', ms: 5000, origin: { source: 'given' } });
    const reference = await resolve({ reference: true, propertyTimeLimit: 'PT5S' });
    expect(reference.properties.timeLimit).toMatchObject({ text: 'PT5S' });
  });
});

describe('the time budget of a run', () => {
  it('holds the run’s limit and the properties’ limit as the configuration resolved them', async () => {
    const certify = await resolve(PT15M_CERTIFY);
    expect(timeBudgetOf(certify)).toEqual({ property: certify.properties.timeLimit });
    expect(timeBudgetOf(certify).property?.origin).toMatchObject({ source: 'derived', chain: 2 });
    const given = await resolve({ ...PT15M_CERTIFY, timeLimit: 'PT2H', propertyTimeLimit: 'PT40M' });
    expect(timeBudgetOf(given)).toEqual({ run: { text: 'PT2H', ms: 7_200_000 }, property: { text: 'PT40M', ms: 2_400_000, origin: { source: 'given' } } });
  });

  it('leaves the properties what the run’s limit leaves when only the run has one', async () => {
    const ci = await resolve({ url: URL, profile: 'ci' });
    expect(timeBudgetOf(ci)).toEqual({ run: { text: 'PT15M', ms: 900_000 } });
    expect(propertyTimeLimitAt(timeBudgetOf(ci), 300_000)).toEqual({ text: 'PT5M', ms: 300_000, origin: { source: 'budget' } });
  });
});
