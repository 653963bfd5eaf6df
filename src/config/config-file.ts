import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ErrorObject } from 'ajv';
import { readJsonOrYamlFile, schemaErrors } from './schema-check.js';
import { ConfigError } from '../errors.js';

/** Names a config file may have in the working folder, found in this order. */
export const CONFIG_FILE_NAMES = ['provisioner-conformance.config.json', 'provisioner-conformance.config.yaml', 'provisioner-conformance.config.yml'];

export interface LoadedConfig {
  file: string;
  /** Values by long option name, with ${NAME} replaced from the environment. */
  values: Record<string, unknown>;
}

/** The config file in `folder`, if there is one. */
export function findConfigFile(folder: string): string | undefined {
  return CONFIG_FILE_NAMES.map((name) => join(folder, name)).find((path) => existsSync(path));
}

function configError(file: string, detail: string): ConfigError {
  return new ConfigError('--config', `${file}: ${detail}`);
}

function keyOf(error: ErrorObject): string {
  if (error.keyword === 'additionalProperties') return String((error.params as { additionalProperty: string }).additionalProperty);
  return error.instancePath.replace(/^\//, '').split('/')[0] ?? '';
}

/** ajv's first error about a key as one sentence naming the key. */
function schemaProblem(errors: readonly ErrorObject[]): string {
  const error = errors.find((e) => e.keyword === 'additionalProperties') ?? errors[0]!;
  const key = keyOf(error);
  if (error.keyword === 'additionalProperties') {
    // The observe section holds the observe command's long option names.
    if (error.instancePath === '/observe') return `unknown key "observe.${key}" (keys of observe are the observe command's long option names, e.g. report-every)`;
    return `unknown key "${key}" (keys are the run command's long option names, e.g. poll-interval)`;
  }
  if (error.instancePath === '') return `must be a mapping of option names to values, ${error.message ?? ''}`.trim();
  const where = error.instancePath.slice(1).replace(/\//g, '.');
  if (error.keyword === 'enum') {
    const allowed = (error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ');
    return `key "${where}" must be one of ${allowed}`;
  }
  if (error.keyword === 'oneOf') return `key "${where}" must be a whole number`;
  return `key "${where}" ${error.message ?? 'is not valid'}`;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Replaces ${NAME} in every string with the environment variable NAME; `unset` says what an unset one becomes. */
function substitute(value: unknown, env: NodeJS.ProcessEnv, unset: (name: string) => string): unknown {
  if (typeof value === 'string') return value.replace(PLACEHOLDER, (_match, name: string) => env[name] ?? unset(name));
  if (Array.isArray(value)) return value.map((item) => substitute(item, env, unset));
  // A section (observe's own keys) is filled in as the top level is.
  if (isMapping(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substitute(item, env, unset)]));
  return value;
}

function substituted(doc: unknown, env: NodeJS.ProcessEnv, unset: (key: string, name: string) => string): unknown {
  if (!isMapping(doc)) return doc;
  return Object.fromEntries(Object.entries(doc).map(([key, value]) => [key, substitute(value, env, (name) => unset(key, name))]));
}

/**
 * A config file's values as far as they can be read, with no check and never an error: what the kit must
 * know of it (its headers, its URL) to mask them in the message about what is wrong with it.
 */
export function readConfigValues(file: string, env: NodeJS.ProcessEnv): Record<string, unknown> | undefined {
  try {
    const doc = substituted(readJsonOrYamlFile(file, '--config', (detail) => new Error(detail)), env, (_key, name) => `\${${name}}`);
    return isMapping(doc) ? doc : undefined;
  } catch {
    return undefined;
  }
}

/** Reads, checks and fills in a config file; every problem is a one-line usage error naming the file and the key. */
export function loadConfigFile(file: string, env: NodeJS.ProcessEnv): LoadedConfig {
  const doc = readJsonOrYamlFile(file, '--config', (detail) => configError(file, detail)) ?? {};
  // Placeholders are filled in first, so that the schema judges the values the run will use.
  const filled = substituted(doc, env, (key, name) => {
    throw configError(file, `key "${key}" uses \${${name}}, but the environment variable ${name} is not set`);
  });
  const errors = schemaErrors('config.schema.json', filled);
  if (errors.length > 0) throw configError(file, schemaProblem(errors));
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filled as Record<string, unknown>)) {
    // Whole numbers are text to the flags that take them, so that their checks name the flag as for a flag.
    values[key] = typeof value === 'number' ? String(value) : value;
  }
  return { file, values };
}
