import { defineFault } from '../fault.js';

export default defineFault({
  name: 'slow-answers',
  breaks: ['answer.prompt'],
  needs: { modes: ['mixed'], flags: ['--answer-timeout', 'PT0.5S'] },
  summary: 'Answers to POST are held for slowAnswerMs before they are sent.',
  postDelayMs: (options) => options.slowAnswerMs,
});
