import { describe, expect, it } from 'vitest';
import { withRestart } from '../../src/poller/restart-note.js';
import { T0, TranscriptBuilder } from '../support/transcript-builder.js';

describe('an operation concluded across the kit’s restart', () => {
  it('says a failure came after the restart cut the work, and when the restart began', () => {
    const b = new TranscriptBuilder();
    b.restart(800, 1_500);
    expect(withRestart('the control plane would record failed after 2.0s', true, b.transcript, T0, T0 + 2_000)).toBe(
      "the control plane would record failed after 2.0s: the work was cut by the kit's restart 800ms after the 202",
    );
  });

  it('names the restart beside any other end, as one the work went across', () => {
    const b = new TranscriptBuilder();
    b.restart(800, 1_500);
    expect(withRestart('the control plane would record succeeded after 2.0s', false, b.transcript, T0, T0 + 2_000)).toBe(
      "the control plane would record succeeded after 2.0s, across the kit's restart 800ms after the 202",
    );
  });

  it('leaves the conclusion as it was when no restart began while the work was in progress', () => {
    const b = new TranscriptBuilder();
    b.restart(800, 1_500);
    const conclusion = 'the control plane would record failed after 2.0s';
    // Accepted after the restart began, or ended before it: the restart cut nothing of it.
    expect(withRestart(conclusion, true, b.transcript, T0 + 900, T0 + 3_000)).toBe(conclusion);
    expect(withRestart(conclusion, true, b.transcript, T0, T0 + 700)).toBe(conclusion);
    expect(withRestart(conclusion, true, new TranscriptBuilder().transcript, T0, T0 + 2_000)).toBe(conclusion);
  });
});
