import { defineFault } from '../fault.js';

export default defineFault({
  name: 'removed-result-renamed',
  breaks: ['final.results-match-changes'],
  // The bundled postgres and splunk-index change sets remove a change: the scenarios find it.
  needs: { modes: ['sync'] },
  summary: 'The result of a removed change comes back with "-removed" appended to its id.',
  // Results come in the order of the changes, so the change behind each result is the one at its index.
  finalAnswer: (answer, call) => ({
    ...answer,
    results: answer.results.map((result, index) => (call.changeSet.changes[index]?.action === 'removed' ? { ...result, id: `${result.id}-removed` } : result)),
  }),
});
