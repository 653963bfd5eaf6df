import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../src/config/defaults.js';
import { resolveRunConfig } from '../../src/config/run-config.js';
import type { RunOptions } from '../../src/config/run-options.js';
import { settingsLine } from '../../src/kit/run.js';

const URL = 'http://127.0.0.1:9';

function emptyFolder(): string {
  return mkdtempSync(join(tmpdir(), 'pc-run-config-'));
}

function resolve(options: RunOptions, cwd = emptyFolder(), env: NodeJS.ProcessEnv = {}) {
  return resolveRunConfig({ options, env, cwd });
}

describe('the resolved configuration of a run', () => {
  it('decides every default once, durations with their text and milliseconds', async () => {
    const config = await resolve({ url: URL });
    expect(config).toMatchObject({
      profile: 'ci',
      target: { url: URL },
      headers: {},
      changesPointer: '/changes',
      pollInterval: { text: 'PT1S', ms: 1000 },
      answerTimeout: { text: 'PT10S', ms: 10_000 },
      restartTimeout: { text: 'PT60S', ms: 60_000 },
      timeLimit: { text: 'PT15M', ms: 900_000 },
      maxOperationDuration: { text: 'PT30M', ms: 1_800_000, source: 'default' },
      burst: 50,
      burstApply: false,
      planOnly: false,
      strict: false,
      showSecrets: false,
      outputs: {},
    });
    expect(config.changeSets.length).toBeGreaterThan(0);
    // The ci profile bounds the run: the properties get what its budget leaves, so their own limit is not decided here.
    expect(config.properties).toEqual({ names: ['property/generated-plans', 'property/malformed-json', 'property/invalid-change-set', 'property/model-based-runs'], allowApplyGenerated: false });
    expect(config.configFile).toBeUndefined();
  });

  it('puts the config file over the profile and the options over both', async () => {
    const cwd = emptyFolder();
    writeFileSync(join(cwd, 'provisioner-conformance.config.yaml'), 'profile: quick\npoll-interval: PT2S\nanswer-timeout: PT3S\nburst: 7\n');
    const fromFile = await resolve({ url: URL }, cwd);
    expect(fromFile).toMatchObject({ profile: 'quick', pollInterval: { text: 'PT2S', ms: 2000 }, answerTimeout: { ms: 3000 }, burst: 7, timeLimit: { text: 'PT2M' } });
    expect(fromFile.properties.maxExamples).toBe(5);
    expect(fromFile.configFile).toBe(join(cwd, 'provisioner-conformance.config.yaml'));
    const overridden = await resolve({ url: URL, pollInterval: 'PT0.5S', burst: 0, profile: 'ci' }, cwd);
    expect(overridden).toMatchObject({ profile: 'ci', pollInterval: { text: 'PT0.5S', ms: 500 }, answerTimeout: { ms: 3000 }, burst: 0, timeLimit: { text: 'PT15M' } });
    expect(overridden.properties.maxExamples).toBeUndefined();
  });

  it('takes the URL from $PROVISIONER_URL, headers as lines or a map, and the reference as its own target', async () => {
    expect((await resolve({}, emptyFolder(), { PROVISIONER_URL: URL })).target).toEqual({ url: URL });
    expect((await resolve({ url: URL, header: { 'X-Token': 'abc' } })).headers).toEqual({ 'x-token': 'abc' });
    expect((await resolve({ url: URL, header: ['X-Token: abc'] })).headers).toEqual({ 'x-token': 'abc' });
    const reference = await resolve({ reference: true, referenceWork: 'PT0.1S', referenceMaxOperations: '3' });
    expect(reference.target).toEqual({ reference: { mode: 'mixed', work: { text: 'PT0.1S', ms: 100 }, maxOperations: 3 } });
    // Not given: the defaults table's, the one `serve` uses too.
    expect((await resolve({ reference: true })).target).toEqual({ reference: { mode: 'mixed', work: { text: 'PT0.5S', ms: 500 }, maxOperations: DEFAULTS.referenceMaxOperations } });
    // The reference's own registration is judged unless another is given.
    expect(reference.registration?.file).toMatch(/fixtures[/\\]registrations[/\\]reference\.json$/);
    // Without the flag, the registration's maxOperationDuration bounds the wait: no default stands in for it.
    expect(reference.maxOperationDuration.source).toBe('registration');
  });

  it("derives the properties' time limit from maxOperationDuration when nothing bounds the run, and keeps the one asked for", async () => {
    // The reference's registration holds PT1M: two operations of it, each with its answer timeout and two poll intervals of PT10S.
    const derived = (await resolve({ url: URL, profile: 'certify', registration: 'fixtures/registrations/reference.json' })).properties.timeLimit;
    expect(derived).toMatchObject({ text: 'PT3M', ms: 180_000, origin: { source: 'derived', chain: 2 } });
    const config = await resolve({ url: URL, profile: 'certify', registration: 'fixtures/registrations/reference.json', propertyTimeLimit: 'PT3M', maxExamples: 2, seed: '7' });
    expect(config.properties).toMatchObject({ timeLimit: { text: 'PT3M', ms: 180_000, origin: { source: 'given' } }, maxExamples: 2, seed: 7 });
  });

  it('refuses an option it does not know, and a value of the wrong kind, by name', async () => {
    await expect(resolve({ url: URL, bogusOption: 1 } as unknown as RunOptions)).rejects.toThrow(/^bogusOption: is not an option of a run/);
    await expect(resolve({ url: URL, header: 'X-A: b' } as unknown as RunOptions)).rejects.toThrow(/^--header: /);
    await expect(resolve({ url: URL, only: 'answer.status' } as unknown as RunOptions)).rejects.toThrow(/^--only: "answer\.status" is not a list of strings$/);
    await expect(resolve({ url: URL, restartTimeout: 'soon' })).rejects.toThrow(/^--restart-timeout: /);
  });

  it('is printed at start-up as it was decided, durations as written', async () => {
    const config = await resolve({ url: URL, pollInterval: 'PT0.25S' });
    expect(settingsLine(config)).toBe('profile ci · no config file · poll interval PT0.25S · answer timeout PT10S · not strict · time limit PT15M · properties: the default number of cases each within what remains of the time limit');
    const certify = await resolve({ url: URL, profile: 'certify', registration: 'fixtures/registrations/reference.json', properties: false });
    expect(settingsLine(certify)).toBe('profile certify · no config file · poll interval PT10S · answer timeout PT10S · strict · no time limit · no properties');
    const derived = await resolve({ url: URL, profile: 'certify', registration: 'fixtures/registrations/reference.json' });
    expect(settingsLine(derived)).toMatch(/ · properties: 50 cases each within PT3M \(derived from maxOperationDuration\)$/);
  });
});
