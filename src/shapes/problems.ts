import type { ErrorObject } from 'ajv';
import { faultsOf, type ErrorFilter, type ShapeFault } from './shape-faults.js';
import { validationErrors, type Validator } from './validators.js';
import { describeType, fieldName, fieldNote, typeName } from './words.js';

/** How one body's sentences are made: which errors are its rule's, and its own words where they differ. */
export interface Wording {
  /** The schema the validator checks (for the order of fields). */
  schema: { readonly [key: string]: unknown };
  /** Errors that another rule judges are left to it. */
  keep?: ErrorFilter;
  /** The body's own sentence for a fault, or undefined for the common one. */
  phrase?: (fault: ShapeFault) => string | undefined;
  /** A second step after the schema, for what a JSON Schema cannot say: more errors, given the schema's. */
  after?: (value: unknown, errors: readonly ErrorObject[]) => ErrorObject[];
}

/** `succeeded or failed`, `in_progress, succeeded or failed`. */
export function alternatives(values: readonly unknown[]): string {
  const words = values.map(String);
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

/** The common sentence for a fault: the kit's words for each keyword the schemas use. */
export function commonSentence(fault: ShapeFault): string {
  const name = fieldName(fault.path);
  const { error, value } = fault;
  switch (fault.keyword) {
    case 'required':
      return `${name} is missing`;
    case 'type': {
      const expected = typeName(String((error.params as { type: string }).type));
      return fault.path.length === 0 ? `the body is ${describeType(value)}, not a JSON ${expected.replace(/^an? /, '')}` : fieldNote(name, value, expected);
    }
    case 'enum':
      return `${name} ${JSON.stringify(value)} is not ${alternatives((error.params as { allowedValues: unknown[] }).allowedValues)}`;
    case 'minItems':
      return (error.params as { limit: number }).limit === 1 ? `${name} is empty` : `${name} has fewer than ${(error.params as { limit: number }).limit} items`;
    case 'pattern':
      // `\S` is how the schemas say "not empty, nor only white space".
      return (error.params as { pattern: string }).pattern === '\\S' ? `${name} is empty` : `${name} ${JSON.stringify(value)} is not of the expected form`;
    default:
      return `${name} ${error.message ?? `fails ${fault.keyword}`}`;
  }
}

/** Everything `validate` finds off in `value` that this body's rule judges, one fault per place. */
export function faultsFor(validate: Validator, value: unknown, wording: Wording): ShapeFault[] {
  const errors = validationErrors(validate, value);
  const more = wording.after?.(value, errors) ?? [];
  return faultsOf([...errors, ...more], value, wording.schema, wording.keep);
}

/** The sentences for everything `validate` finds off in `value` that this body's rule judges. */
export function problemsOf(validate: Validator, value: unknown, wording: Wording): string[] {
  const faults = faultsFor(validate, value, wording);
  const sentences = faults.map((fault) => wording.phrase?.(fault) ?? commonSentence(fault));
  return [...new Set(sentences)];
}
