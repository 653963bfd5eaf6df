import { defineFault } from '../fault.js';

export default defineFault({
  name: 'slow-answers',
  breaks: ['answer.prompt'],
  // Reads must answer within the answer timeout too: a second leaves a loaded test machine room for them, while the
  // POSTs held 1.5 s (slowAnswerMs) are always late.
  needs: { modes: ['mixed'], flags: ['--answer-timeout', 'PT1S'] },
  summary: 'Answers to POST are held for slowAnswerMs before they are sent.',
  postDelayMs: (options) => options.slowAnswerMs,
});
