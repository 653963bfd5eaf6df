import { afterEach, describe, expect, it } from 'vitest';
import { bundledChangeSetFiles, loadChangeSets } from '../../src/config/change-sets.js';
import type { PropertyResult } from '../../src/core/property-result.js';
import { startReferenceProvisioner, type RunningReference } from '../../src/reference/index.js';
import { driveAndJudge } from '../../src/runner/drive-and-judge.js';
import { SITUATION_SUITES } from '../../src/transcript/situations.js';
import type { PropertySuite } from '../../suites/properties/property.js';
import type { Suite } from '../../suites/suite.js';
import { givenTimeLimit } from '../support/time-limit.js';

const references: RunningReference[] = [];
afterEach(async () => {
  await Promise.all(references.splice(0).map((reference) => reference.close()));
});

function passed(name: string): PropertyResult {
  return { name, status: 'passed', numRuns: 1, seed: 1, interrupted: false, ruleIds: [], exchanges: [], notes: [], reruns: [], message: '' };
}

describe('the order of a run', () => {
  it('starts the properties once the scenarios and the burst are over, reads after final answers included', async () => {
    const reference = await startReferenceProvisioner({ mode: 'async', workMs: 50 });
    references.push(reference);
    const timeline: string[] = [];
    const scenario: Suite = {
      name: 'scenario/short',
      async run() {
        timeline.push('scenario start');
        await new Promise((resolve) => setImmediate(resolve));
        timeline.push('scenario end');
      },
    };
    const burstSeen: number[] = [];
    const property = (name: string, applies: boolean): PropertySuite => ({
      name,
      defaultMaxExamples: 1,
      applies: () => applies,
      async run(context) {
        timeline.push(`${name} start`);
        burstSeen.push(context.client.transcript.exchanges.filter((e) => e.suite === SITUATION_SUITES.burst).length);
        return passed(name);
      },
    });
    const outcome = await driveAndJudge({
      url: reference.url,
      headers: {},
      changeSets: await loadChangeSets(await bundledChangeSetFiles(), '/changes'),
      changesPointer: '/changes',
      maxOperationDuration: { ms: 10_000, text: 'PT10S', source: 'flag' },
      pollInterval: { text: 'PT0.02S', ms: 20 },
      answerTimeout: { text: 'PT5S', ms: 5_000 },
      planOnly: false,
      strict: false,
      showSecrets: false,
      burst: { calls: 4, applies: false },
      suites: [scenario],
      timeBudget: { property: givenTimeLimit(5_000) },
      properties: { suites: [property('plans', false), property('applies', true)], allowApplyGenerated: false },
    });
    expect(outcome.properties.map((p) => p.name)).toEqual(['plans', 'applies']);
    expect(timeline).toEqual(['scenario start', 'scenario end', 'plans start', 'applies start']);
    // The burst was over when the properties started: no exchange of it ended later, reads after final answers included.
    const burst = outcome.transcript.exchanges.filter((e) => e.suite === SITUATION_SUITES.burst);
    expect(burst.filter((e) => e.request.method === 'POST')).toHaveLength(4);
    expect(burst.some((e) => e.probe)).toBe(true);
    expect(burstSeen).toEqual([burst.length, burst.length]);
  });
});
