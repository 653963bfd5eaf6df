import { operationSchema } from './generated/schemas.js';
import { problemsOf } from './problems.js';
import { validators } from './validators.js';
import { typeName } from './words.js';

const FIELD_TYPES: Readonly<Record<string, unknown>> = Object.fromEntries(
  Object.entries(operationSchema.properties).map(([field, schema]) => [field, 'type' in schema ? schema.type : undefined]),
);

/**
 * operation.body: what keeps a 200 read from having the outcome shape. Results while in_progress
 * (operation.in-progress-results-empty) and the shape of final results (final.result-shape) are other rules'.
 * The words are operation.body's own: `description is not a string`, whether it is missing or of another type.
 */
export function operationBodyProblems(value: unknown): string[] {
  return problemsOf(validators.operation, value, {
    schema: operationSchema,
    keep: (error, path) => path.length <= 1 && !error.schemaPath.startsWith('#/allOf'),
    phrase: ({ path, keyword }) => {
      if (path.length === 0) return 'body is not a JSON object';
      const field = String(path[0]);
      if (field === 'outcome') return keyword === 'required' ? 'outcome is missing' : undefined;
      const type = FIELD_TYPES[field];
      return typeof type === 'string' ? `${field} is not ${typeName(type)}` : undefined;
    },
  });
}
