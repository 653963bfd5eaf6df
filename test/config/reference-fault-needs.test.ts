import { describe, expect, it } from 'vitest';
import { applyFaultNeeds } from '../../src/config/reference-fault-needs.js';
import { applyServeFaultNeeds } from '../../src/config/serve-fault-needs.js';
import { faultListing } from '../../src/cli/fault-list.js';
import { FAULTS } from '../../src/reference/index.js';

describe('run --reference --reference-fault NAME', () => {
  it('applies what the fault needs and the user left out, and says so in one line', () => {
    const { options, line } = applyFaultNeeds({ reference: true, referenceFault: 'full-429' });
    expect(options).toMatchObject({ referenceMode: 'async', referenceMaxOperations: '12', burst: '20', property: 'property/generated-plans', referenceWork: 'PT2S' });
    expect(line).toBe('provisioner-conformance: the fault full-429 needs --reference-mode async --reference-max-operations 12 --burst 20 --property property/generated-plans --reference-work PT2S: applied');
  });

  it('selects the property that finds the fault, with its seed', () => {
    expect(applyFaultNeeds({ reference: true, referenceFault: 'racing-reads' }).options).toMatchObject({ referenceMode: 'async', property: 'property/model-based-runs', seed: '1' });
  });

  it('keeps what the user gave with the same value, and tells only what it applied', () => {
    const { options, line } = applyFaultNeeds({ reference: true, referenceFault: 'full-429', burst: 20, referenceMode: 'async' });
    expect(options.burst).toBe(20);
    expect(line).toMatch(/: applied --reference-max-operations 12 --property property\/generated-plans --reference-work PT2S, the rest was given$/);
    expect(applyFaultNeeds({ reference: true, referenceFault: 'plain-404', referenceMode: 'mixed' }).line).toBeUndefined();
  });

  it('runs a fault of several modes in the one the user picks', () => {
    expect(applyFaultNeeds({ reference: true, referenceFault: 'missing-result', referenceMode: 'async' }).options.referenceMode).toBe('async');
    expect(applyFaultNeeds({ reference: true, referenceFault: 'missing-result' }).options.referenceMode).toBe('sync');
  });

  it('refuses, naming the flags to change, what contradicts a need', () => {
    expect(() => applyFaultNeeds({ reference: true, referenceFault: 'full-429', burst: 8, referenceMode: 'sync' })).toThrow(
      '--reference-fault: full-429 needs --reference-mode async --burst 20; change --reference-mode sync --burst 8 or leave them out',
    );
    expect(() => applyFaultNeeds({ reference: true, referenceFault: 'missing-result', referenceMode: 'mixed' })).toThrow('needs --reference-mode sync or async');
    expect(() => applyFaultNeeds({ reference: true, referenceFault: 'racing-reads', properties: false })).toThrow(
      'racing-reads needs --property property/model-based-runs; change --no-properties or leave it out',
    );
  });

  it('leaves an unknown fault to the resolver, which refuses it', () => {
    expect(applyFaultNeeds({ reference: true, referenceFault: 'no-such-fault' })).toEqual({ options: { reference: true, referenceFault: 'no-such-fault' } });
  });
});

describe('serve --fault NAME', () => {
  it("applies the needs that are the server's and tells the rest for run --url", () => {
    const { settings, line } = applyServeFaultNeeds('full-429', {});
    expect(settings).toEqual({ mode: 'async', maxOperations: 12, work: 'PT2S' });
    expect(line).toBe('the fault full-429 needs --mode async --max-operations 12 --work PT2S: applied; give run --url --burst 20 --property property/generated-plans');
    expect(applyServeFaultNeeds('never-finishes', {}).line).toMatch(/--max-operation-duration PT1S: applied; give run --url --max-operation-duration PT1S$/);
    expect(applyServeFaultNeeds('lost-on-restart', {}).line).toMatch(/give run --url a --restart-command that restarts this serve/);
  });

  it('refuses a serve flag that contradicts a need', () => {
    expect(() => applyServeFaultNeeds('full-429', { mode: 'sync', work: 'PT2S' })).toThrow('--fault: full-429 needs --mode async; change --mode sync or leave it out');
  });
});

describe('serve --list-faults', () => {
  it('shows each fault with the rules it breaks, its summary, and its needs as flags', () => {
    const listing = faultListing();
    for (const fault of FAULTS) expect(listing).toContain(`${fault.breaks.join(', ')}`);
    expect(listing).toMatch(/^full-429 +capacity\.burst +When maxOperations operations are in progress.*\n +needs --reference-mode async --reference-max-operations 12 --burst 20 --property property\/generated-plans --reference-work PT2S$/m);
    expect(listing).toMatch(/^missing-result .*\n +needs --reference-mode sync\|async$/m);
    expect(listing).toMatch(/^lost-on-restart .*\n +needs --reference-mode async, and a restart of the provisioner$/m);
  });
});
