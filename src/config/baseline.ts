import { ConfigError } from '../errors.js';
import { RULE_IDS } from '../rules/index.js';
import { readJsonOrYamlFile, schemaErrors } from './schema-check.js';

/** One known failure a team accepts until a date: the rule, why, and the last day it holds. */
export interface Waiver {
  rule: string;
  reason: string;
  /** YYYY-MM-DD, the last day (UTC) the waiver holds. */
  expires: string;
}

export interface Baseline {
  file: string;
  waivers: Waiver[];
}

function baselineError(file: string, detail: string): ConfigError {
  return new ConfigError('--baseline', `${file}: ${detail}`);
}

function isRealDate(day: string): boolean {
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(day);
}

/** Reads a baseline (JSON or YAML); an unknown rule id, a bad date or a missing reason is one line naming it. */
export function loadBaseline(file: string): Baseline {
  const doc = readJsonOrYamlFile(file, '--baseline', (detail) => baselineError(file, detail));
  const errors = schemaErrors('baseline.schema.json', doc);
  if (errors.length > 0) {
    const first = errors[0]!;
    const where = first.instancePath === '' ? 'the document' : first.instancePath.slice(1).replace(/\//g, '.');
    const extra = first.keyword === 'additionalProperties' ? ` (${String((first.params as { additionalProperty: string }).additionalProperty)})` : '';
    throw baselineError(file, `${where} ${first.message ?? 'is not valid'}${extra}; a baseline is { "waivers": [{ "rule", "reason", "expires": "YYYY-MM-DD" }] }`);
  }
  const waivers = (doc as { waivers: Waiver[] }).waivers;
  waivers.forEach((waiver, index) => {
    if (!RULE_IDS.includes(waiver.rule)) throw baselineError(file, `waivers.${index}.rule "${waiver.rule}" is no rule id (see the rules command)`);
    if (!isRealDate(waiver.expires)) throw baselineError(file, `waivers.${index}.expires "${waiver.expires}" is no date`);
  });
  return { file, waivers };
}
