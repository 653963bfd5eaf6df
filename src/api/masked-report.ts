import { buildJsonReport, type JsonReport } from '../report/json-report.js';
import type { SecretMask } from '../report/secret-mask.js';
import type { RunOutcome } from '../runner/outcome.js';

// The JSON report's parts, as a library function resolves to them and `--report` writes them: `report.rules` is a `ReportRule[]`.
export type {
  JsonRule as ReportRule,
  JsonEvidence as ReportEvidence,
  JsonExchange as ReportExchange,
  JsonProperty as ReportProperty,
  JsonSettings as ReportSettings,
} from '../report/json-report.js';
export type { RunOutcome } from '../runner/outcome.js';

/** What a run, an observation or a recording judged again found, with the shape of the JSON report (`schemas/report.schema.json`). */
export type Report = JsonReport;

/** The report of an outcome as it leaves the kit as a value, not a file: through the same mask as everything the CLI writes. */
export function maskedReport(outcome: RunOutcome, mask: SecretMask): Report {
  return JSON.parse(mask.json(JSON.stringify(buildJsonReport(outcome)))) as Report;
}
