import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { bundledPath } from '../core/package.js';
import { jsonSyntaxError } from '../core/json.js';
import { unreadableFile } from '../errors.js';

// Ajv is loaded only when a user's file is checked: nothing else at start-up needs it.
const require = createRequire(import.meta.url);
const validators = new Map<string, ValidateFunction>();

/** ajv's errors for `doc` against one of the schemas in `schemas/`, compiled once; empty when it holds. */
export function schemaErrors(schemaFile: string, doc: unknown): readonly ErrorObject[] {
  let validate = validators.get(schemaFile);
  if (!validate) {
    const Ajv = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
    validate = new Ajv.default({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(bundledPath('schemas', schemaFile), 'utf8')) as object);
    validators.set(schemaFile, validate);
  }
  return validate(doc) ? [] : (validate.errors ?? []);
}

/** Reads a JSON or YAML document by its extension; a syntax error is one line, for the caller's message. */
export function parseJsonOrYaml(file: string, text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const yaml = /\.ya?ml$/i.test(file);
  try {
    if (!yaml) return { ok: true, value: JSON.parse(text) as unknown };
    const { parse } = require('yaml') as typeof import('yaml');
    return { ok: true, value: parse(text) as unknown };
  } catch (error) {
    // The first line only: YAML's next lines, and V8's own quote of the text, would show the document itself.
    return { ok: false, error: `is not valid ${yaml ? 'YAML' : 'JSON'}: ${(yaml ? (error as Error).message : jsonSyntaxError(text, error)).split('\n')[0]}` };
  }
}

/**
 * A user's JSON or YAML file, given by `flag`, read and parsed: a file that cannot be read is said as for any
 * input file; what it says that cannot be parsed is one line for `fail` to turn into the caller's error.
 */
export function readJsonOrYamlFile(file: string, flag: string, fail: (detail: string) => Error): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw unreadableFile(flag, file, error);
  }
  const parsed = parseJsonOrYaml(file, text);
  if (!parsed.ok) throw fail(parsed.error);
  return parsed.value;
}
