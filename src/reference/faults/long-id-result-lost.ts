import { defineFault } from '../fault.js';

/** Ids longer than this (in characters) lose their result: a fixed-width column. */
const LONGEST_KEPT_ID = 20;

export default defineFault({
  name: 'long-id-result-lost',
  breaks: ['final.results-match-changes'],
  // The bundled change sets have short ids: only generated input finds it.
  needs: { modes: ['mixed'], property: { name: 'property/generated-plans', seed: 1 } },
  summary: 'Final answers leave out the result of every change whose id is longer than 20 characters.',
  finalAnswer: (answer) => ({ ...answer, results: answer.results.filter((result) => Array.from(result.id).length <= LONGEST_KEPT_ID) }),
});
