// The body shapes of the contract, judged by the published schemas (schemas/*.json) through validators that
// scripts/generate-validators.mjs compiles at build time. Each function returns the kit's sentences for what
// is off, in the schema's field order; an empty list means the value has the shape.
export { acceptedBodyProblems, acceptedOnlyOperationIdProblems } from './accepted.js';
export { finalAnswerProblems, IN_PROGRESS_ON_200, resultProblems } from './final-answer.js';
export { operationBodyProblems } from './operation.js';
export { registrationBodyProblems } from './registration.js';
export { describeType } from './words.js';
