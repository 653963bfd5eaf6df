import { defineFault } from '../fault.js';
import { proxyUnavailableReply } from '../responses.js';

export default defineFault({
  name: 'flaky-reads',
  breaks: ['operation.transient-errors'],
  needs: { modes: ['async'] },
  summary: 'Every second read of an operation, until it has given its final answer, answers 503 with a proxy HTML page.',
  // Reads after the final answer are spared, so that the rules about final answers stay untouched.
  readAnswer: (answer, read) => (read.phase !== 'after-final' && read.operation.history.readsBeforeFinal % 2 === 0 ? proxyUnavailableReply() : answer),
});
