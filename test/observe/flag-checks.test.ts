import { describe, expect, it } from 'vitest';
import { resolveObserveConfig } from '../../src/config/observe-config.js';

describe('observe checks its flags as a run does', () => {
  it('an --upstream without its scheme suggests http://, and a rule id typo the closest id', async () => {
    await expect(resolveObserveConfig({ upstream: 'localhost:8080' })).rejects.toThrow('--upstream: "localhost:8080" is not an http or https URL (did you mean http://localhost:8080?)');
    await expect(resolveObserveConfig({ upstream: 'http://localhost:8080', only: ['answer.statuss'] })).rejects.toThrow('--only: unknown rule id "answer.statuss" (did you mean answer.status?)');
  });
});
