import type { DurationSetting } from '../core/judge-context.js';
import type { OperationConclusion } from '../core/operation-conclusion.js';
import type { PropertyResult } from '../core/property-result.js';
import type { ExitCode, Verdict } from '../core/verdict.js';
import type { Level, RuleStatus } from '../rules/types.js';
import type { BudgetOutcome, RunOutcome, Summary } from '../runner/outcome.js';
import type { Exchange, ExchangeTag, Millis, TransportErrorKind } from '../transcript/exchange.js';
import { curlFor } from './curl.js';
import { replayArgs } from './replay.js';
import { redactBodyText, redactHeaders } from '../core/redact.js';
import { keepWholeCharacters } from './safe-text.js';
import type { Observation } from '../core/observation.js';

/** Most characters of a response body kept in the report. */
export const REPORT_BODY_LIMIT = 4000;

export interface JsonExchange {
  seq: number;
  tag: ExchangeTag;
  probe: boolean;
  suite: string;
  changeSet?: string;
  operationId?: string;
  method: 'GET' | 'POST';
  url: string;
  sentAt: string;
  elapsedMs: number;
  status?: number;
  error?: { kind: TransportErrorKind; message: string };
  requestHeaders: Record<string, string>;
  requestBody?: string;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
  /** The response body shown is not all of it: the client or the report cut it. */
  truncated?: boolean;
  curl: string;
}

export interface JsonEvidence {
  note: string;
  exchanges: JsonExchange[];
}

export interface JsonRule {
  id: string;
  level: Level;
  status: RuleStatus;
  title: string;
  sentence: string;
  message: string;
  count?: number;
  waiver?: { reason: string; expires: string; status: 'fail' | 'warn' | 'advice' };
  evidence: JsonEvidence[];
}

/** One property suite's end: held, or a shrunk counterexample with the exchanges that show it. */
export interface JsonProperty extends Omit<PropertyResult, 'exchanges' | 'reruns'> {
  exchanges: JsonExchange[];
  reruns: Array<{ reproduced: boolean; exchanges: JsonExchange[]; notes: string[] }>;
  /** Flags that, added to the run's own, replay this property: `--property NAME --seed S [--path P]`. */
  replay: string[];
}

export interface JsonSettings {
  profile?: string;
  configFile?: string;
  baseline?: { file: string; waivers: Array<{ rule: string; reason: string; expires: string }> };
  /**
   * The poll interval in milliseconds. The report's schema fixes this name (without `Ms`), so it stays for
   * compatibility; the run's configuration holds it as a duration with its text and milliseconds.
   */
  pollInterval: number;
  /** The answer timeout in milliseconds; named as the schema fixes it, like `pollInterval`. */
  answerTimeout: number;
  maxOperationDuration: DurationSetting;
  changesPointer: string;
  planOnly: boolean;
  strict: boolean;
  /** Whether secrets were left in this report. */
  showSecrets: boolean;
  changeSets: string[];
}

/** The machine-readable report of a run; its shape is schemas/report.schema.json. */
export interface JsonReport {
  kit: { name: string; version: string };
  target: { url: string };
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  verdict: Verdict;
  exitCode: ExitCode;
  summary: Summary;
  settings: JsonSettings;
  conclusions: string[];
  operations: OperationConclusion[];
  rules: JsonRule[];
  properties: JsonProperty[];
  /** The run-wide budget (--time-limit), when there was one: what was spent and what lacks cases. */
  budget?: BudgetOutcome;
  /** For observed traffic (`observe`, `verify --har`): what the traffic held, and how often each rule was exercised. */
  observation?: Observation;
  exchanges: { total: number; byTag: Record<ExchangeTag, number> };
}

function iso(at: Millis): string {
  return new Date(at).toISOString();
}

// Sub-millisecond digits of a fractional clock are noise in a report.
function tenths(ms: number): number {
  return Math.round(ms * 10) / 10;
}

function responseBody(exchange: Exchange, showSecrets: boolean): { text: string; cut: boolean } | undefined {
  const response = exchange.response;
  if (!response) return undefined;
  const text = showSecrets ? response.body : redactBodyText(response.body, response.json);
  const kept = keepWholeCharacters(text, REPORT_BODY_LIMIT);
  return { text: kept, cut: kept.length < text.length || response.truncated || response.elided !== undefined };
}

export function jsonExchange(exchange: Exchange, showSecrets: boolean): JsonExchange {
  const { request, response, error } = exchange;
  const body = responseBody(exchange, showSecrets);
  const headers = (h: Record<string, string>): Record<string, string> => (showSecrets ? { ...h } : redactHeaders(h));
  return {
    seq: exchange.seq,
    tag: exchange.tag,
    probe: exchange.probe,
    suite: exchange.suite,
    ...(exchange.changeSet !== undefined && { changeSet: exchange.changeSet }),
    ...(exchange.operationId !== undefined && { operationId: exchange.operationId }),
    method: request.method,
    url: request.url,
    sentAt: iso(exchange.sentAt),
    elapsedMs: tenths(exchange.endedAt - exchange.sentAt),
    ...(response && { status: response.status }),
    ...(error && { error: { kind: error.kind, message: error.message } }),
    requestHeaders: headers(request.headers),
    ...(request.body !== undefined && { requestBody: showSecrets ? request.body : redactBodyText(request.body) }),
    ...(response && { responseHeaders: headers(response.headers) }),
    ...(body && { responseBody: body.text }),
    ...(body?.cut && { truncated: true }),
    curl: curlFor(exchange, showSecrets),
  };
}

/** How a report holds the exchanges it shows: an array, or a list made while the report is written out. */
type ExchangeList<L> = (outcome: RunOutcome, seqs: readonly number[]) => L;

/** The report with every list of exchanges made by `L`'s maker: {@link JsonReport} when `L` is an array. */
export type JsonReportOf<L> = Omit<JsonReport, 'rules' | 'properties'> & {
  rules: Array<Omit<JsonRule, 'evidence'> & { evidence: Array<Omit<JsonEvidence, 'exchanges'> & { exchanges: L }> }>;
  properties: Array<Omit<JsonProperty, 'exchanges' | 'reruns'> & { exchanges: L; reruns: Array<Omit<JsonProperty['reruns'][number], 'exchanges'> & { exchanges: L }> }>;
};

// An id the transcript does not hold cannot be shown; the note still says what it was about.
function* shownExchanges(outcome: RunOutcome, seqs: readonly number[]): Generator<JsonExchange> {
  for (const seq of seqs) {
    const exchange = outcome.transcript.bySeq(seq);
    if (exchange !== undefined) yield jsonExchange(exchange, outcome.settings.showSecrets);
  }
}

function exchangesBySeq(outcome: RunOutcome, seqs: readonly number[]): JsonExchange[] {
  return [...shownExchanges(outcome, seqs)];
}

/** The report's exchanges made one at a time, each when it is written: see {@link buildJsonReportWith}. */
export function exchangesOnDemand<L>(list: (items: () => Iterable<JsonExchange>) => L): ExchangeList<L> {
  return (outcome, seqs) => list(() => shownExchanges(outcome, seqs));
}

function jsonProperty<L>(outcome: RunOutcome, result: PropertyResult, exchangesBySeq: ExchangeList<L>): JsonReportOf<L>['properties'][number] {
  return {
    name: result.name,
    status: result.status,
    numRuns: result.numRuns,
    ...(result.shrinkRuns !== undefined && result.shrinkRuns > 0 && { shrinkRuns: result.shrinkRuns }),
    ...(result.casesAsked !== undefined && { casesAsked: result.casesAsked }),
    seed: result.seed,
    ...(result.path !== undefined && { path: result.path }),
    interrupted: result.interrupted,
    ruleIds: [...result.ruleIds],
    ...(result.counterexample !== undefined && { counterexample: result.counterexample }),
    exchanges: exchangesBySeq(outcome, result.exchanges),
    notes: [...result.notes],
    reruns: result.reruns.map((rerun) => ({ reproduced: rerun.reproduced, exchanges: exchangesBySeq(outcome, rerun.exchanges), notes: [...rerun.notes] })),
    message: result.message,
    replay: replayArgs(result),
  };
}

function jsonRule<L>(outcome: RunOutcome, rule: RunOutcome['rules'][number], exchangesBySeq: ExchangeList<L>): JsonReportOf<L>['rules'][number] {
  return {
    id: rule.id,
    level: rule.level,
    status: rule.status,
    title: rule.title,
    sentence: rule.sentence,
    message: rule.message,
    ...(rule.count !== undefined && { count: rule.count }),
    ...(rule.waiver !== undefined && { waiver: { ...rule.waiver } }),
    evidence: rule.evidence.map((evidence) => ({ note: evidence.note, exchanges: exchangesBySeq(outcome, evidence.exchanges) })),
  };
}

function countByTag(exchanges: readonly Exchange[]): Record<ExchangeTag, number> {
  const counts: Record<ExchangeTag, number> = {
    plan: 0,
    apply: 0,
    poll: 0,
    'read-concurrent': 0,
    'read-after-final': 0,
    'read-unknown': 0,
    'read-malformed': 0,
    'malformed-json': 0,
    'invalid-change-set': 0,
  };
  for (const exchange of exchanges) counts[exchange.tag] += 1;
  return counts;
}

/** The run as a JSON document: settings, verdict, every rule with its evidence, and exchange counts. */
export function buildJsonReport(outcome: RunOutcome): JsonReport {
  return buildJsonReportWith(outcome, exchangesBySeq);
}

/** {@link buildJsonReport} with the lists of exchanges made by `exchangesBySeq` (e.g. made only when written). */
export function buildJsonReportWith<L>(outcome: RunOutcome, exchangesBySeq: ExchangeList<L>): JsonReportOf<L> {
  const { settings } = outcome;
  return {
    kit: { name: outcome.kit.name, version: outcome.kit.version },
    target: { url: outcome.target.url },
    startedAt: iso(outcome.startedAt),
    finishedAt: iso(outcome.finishedAt),
    durationMs: Math.round(outcome.finishedAt - outcome.startedAt),
    verdict: outcome.verdict,
    exitCode: outcome.exitCode,
    summary: { ...outcome.summary },
    settings: {
      ...(settings.profile !== undefined && { profile: settings.profile }),
      ...(settings.configFile !== undefined && { configFile: settings.configFile }),
      ...(settings.baseline !== undefined && { baseline: { file: settings.baseline.file, waivers: settings.baseline.waivers.map((w) => ({ ...w })) } }),
      pollInterval: settings.pollInterval.ms,
      answerTimeout: settings.answerTimeout.ms,
      maxOperationDuration: { ...settings.maxOperationDuration },
      changesPointer: settings.changesPointer,
      planOnly: settings.planOnly,
      strict: settings.strict,
      showSecrets: settings.showSecrets,
      changeSets: [...settings.changeSets],
    },
    conclusions: [...outcome.conclusions],
    operations: outcome.operations.map((op) => ({ ...op })),
    rules: outcome.rules.map((rule) => jsonRule(outcome, rule, exchangesBySeq)),
    properties: outcome.properties.map((result) => jsonProperty(outcome, result, exchangesBySeq)),
    ...(outcome.budget && {
      budget: {
        ...outcome.budget,
        limit: { ...outcome.budget.limit },
        properties: outcome.budget.properties.map((property) => ({ ...property })),
        notExercised: [...outcome.budget.notExercised],
      },
    }),
    ...(outcome.observation && { observation: structuredClone(outcome.observation) }),
    exchanges: { total: outcome.transcript.exchanges.length, byTag: countByTag(outcome.transcript.exchanges) },
  };
}
