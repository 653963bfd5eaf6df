import type { JsonExchange, JsonProperty, JsonReport, JsonRule } from '../json-report.js';
import { casesFact } from '../property-cases.js';
import { upstreamText } from '../upstream-text.js';
import { shellWord } from '../shell-quote.js';
import { escapeHtml as e } from './escape.js';
import type { Timeline } from './timeline.js';
import { timelineHtmlPieces, timelineLegend, type LaneFindings } from './timeline-svg.js';
import { PAGE_SCRIPT, PAGE_STYLE } from './page-assets.js';
import { inTimeOrder, piecesInTimeOrder } from '../time-order.js';

/** The order statuses are listed and filtered in: what needs attention first. */
const STATUS_ORDER = ['error', 'fail', 'warn', 'advice', 'waived', 'not-applicable', 'not-exercised', 'skip', 'pass'];

/** Statuses of a rule that did not hold: each is on the page's first screen. */
const DID_NOT_HOLD = ['error', 'fail', 'warn'];

const BODY_LIMIT = 4000;

// Cases shown of a rule that did not hold; the JSON report keeps them all.
const CASES_SHOWN = 5;

function headerTable(headers: Record<string, string> | undefined): string {
  if (!headers || Object.keys(headers).length === 0) return '';
  const rows = Object.entries(headers).map(([name, value]) => `<tr><th>${e(name)}</th><td>${e(value)}</td></tr>`);
  return `<table class="headers">${rows.join('')}</table>`;
}

function bodyBlock(label: string, body: string | undefined, contentType: string | undefined, truncated?: boolean): string {
  if (body === undefined || body === '') return '';
  // A proxy's HTML error page is shown as its words, never as markup.
  const text = upstreamText(body, contentType, BODY_LIMIT);
  return `<div class="body"><span class="label">${e(label)}${truncated ? ' (cut)' : ''}</span><pre>${e(text)}</pre></div>`;
}

/** The `outcome` a JSON answer names, when it names one of the contract's. */
function answeredOutcome(exchange: JsonExchange): string | undefined {
  if (exchange.responseBody === undefined || exchange.truncated) return undefined;
  try {
    const body: unknown = JSON.parse(exchange.responseBody);
    const outcome = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>).outcome : undefined;
    return outcome === 'in_progress' || outcome === 'succeeded' || outcome === 'failed' ? outcome : undefined;
  } catch {
    return undefined;
  }
}

/** What an exchange answered, in a few words: `200 in_progress`, `202`, `404`, `no answer: timeout`. */
function answerText(exchange: JsonExchange): string {
  if (exchange.status === undefined) return `no answer: ${exchange.error?.kind ?? 'error'}${exchange.error ? ` (${exchange.error.message})` : ''}`;
  const outcome = answeredOutcome(exchange);
  return outcome === undefined ? String(exchange.status) : `${exchange.status} ${outcome}`;
}

function exchangeBlock(exchange: JsonExchange): string {
  const answer = answerText(exchange);
  const contentType = exchange.responseHeaders?.['content-type'];
  return [
    `<details class="exchange"><summary><code>#${exchange.seq}</code> ${e(exchange.method)} <code>${e(exchange.url)}</code> → <strong>${e(answer)}</strong>`,
    ` <span class="muted">after ${e(exchange.elapsedMs.toFixed(1))} ms · ${e(exchange.tag)}${exchange.probe ? ' (probe)' : ''} · ${e(exchange.suite)}</span></summary>`,
    `<div class="exchange-body"><span class="label">request headers</span>${headerTable(exchange.requestHeaders)}`,
    bodyBlock('request body', exchange.requestBody, exchange.requestHeaders['content-type']),
    exchange.responseHeaders ? `<span class="label">response headers</span>${headerTable(exchange.responseHeaders)}` : '',
    bodyBlock('response body', exchange.responseBody, contentType, exchange.truncated),
    `<div class="curl"><span class="label">repeat it</span><pre>${e(exchange.curl)}</pre></div></div></details>`,
  ].join('');
}

function ruleRow(rule: JsonRule): string {
  return `<tr class="rule s-${e(rule.status)}"><td><span class="status ${e(rule.status)}">${e(rule.status)}</span></td><td><code>${e(rule.id)}</code></td><td>${e(rule.level)}</td><td>${e(rule.title)}</td><td>${e(rule.message)}</td></tr>`;
}

/** A report exchange's time and number, for putting evidence in the order it happened. */
const sentAtOf = (exchange: JsonExchange): number => Date.parse(exchange.sentAt);
const seqOf = (exchange: JsonExchange): number => exchange.seq;

/** A rule's evidence as it happened: the oldest piece first, each piece's exchanges oldest first. */
function evidenceInTimeOrder(rule: JsonRule): JsonRule['evidence'] {
  return piecesInTimeOrder(rule.evidence, (item) => item.exchanges, sentAtOf, seqOf).map((item) => ({ ...item, exchanges: inTimeOrder(item.exchanges, sentAtOf, seqOf) }));
}

function ruleFinding(rule: JsonRule): string {
  const evidence = evidenceInTimeOrder(rule)
    .slice(0, CASES_SHOWN)
    .map((item) => `<li><p>${e(item.note)}</p>${item.exchanges.map(exchangeBlock).join('')}</li>`);
  const left = rule.evidence.length - evidence.length;
  return [
    `<article class="finding s-${e(rule.status)}" id="rule-${e(rule.id)}">`,
    `<h3><span class="status ${e(rule.status)}">${e(rule.status)}</span> <code>${e(rule.id)}</code> ${e(rule.title)}</h3>`,
    `<p class="sentence">${e(rule.sentence)}</p><p>${e(rule.message)}</p>`,
    evidence.length > 0 ? `<ol class="evidence">${evidence.join('')}</ol>` : '',
    left > 0 ? `<p class="more-cases">and ${left} more ${left === 1 ? 'case' : 'cases'}, not shown here: the JSON report (<code>--report</code>) lists all ${rule.evidence.length}.</p>` : '',
    '</article>',
  ].join('');
}

// Exchanges of a rule's first piece of evidence shown on the first screen, one line each.
const FIRST_EXCHANGES = 3;

/** A rule's first piece of evidence in a few lines: its note, then its first exchanges and what each answered. */
function firstEvidence(rule: JsonRule): string {
  // The piece that happened first, its first exchanges, as the findings below show them.
  const [first] = evidenceInTimeOrder(rule);
  if (!first) return '';
  const shown = first.exchanges.slice(0, FIRST_EXCHANGES);
  const exchanges = shown.map(
    (exchange) => `<br><span class="muted"><code>#${exchange.seq}</code> ${e(exchange.method)} <code>${e(exchange.url)}</code> → <strong>${e(answerText(exchange))}</strong></span>`,
  );
  const left = first.exchanges.length - exchanges.length;
  return `<p class="first-evidence">${e(first.note)}${exchanges.join('')}${left > 0 ? `<br><span class="muted">and ${left} more</span>` : ''}</p>`;
}

/** The first screen's list: each rule that did not hold, with what the run showed and its first piece of evidence. */
function didNotHold(rules: readonly JsonRule[]): string {
  const broken = rules.filter((rule) => DID_NOT_HOLD.includes(rule.status)).sort(ruleSort);
  if (broken.length === 0) return '';
  const items = broken.map(
    (rule) =>
      `<li class="s-${e(rule.status)}" data-rule="${e(rule.id)}"><span class="status ${e(rule.status)}">${e(rule.status)}</span> <a href="#rule-${e(rule.id)}"><code>${e(rule.id)}</code></a> ${e(rule.title)}${rule.evidence.length > 1 ? ` <span class="muted">· ${rule.evidence.length} cases</span>` : ''}<p>${e(rule.message)}</p>${firstEvidence(rule)}</li>`,
  );
  return `<section id="did-not-hold" aria-label="Rules that did not hold"><ul class="did-not-hold">${items.join('')}</ul></section>`;
}

/** Which operations each rule that did not hold points at: their lanes are marked. */
function laneFindings(rules: readonly JsonRule[]): LaneFindings {
  const found = new Map<string, string[]>();
  for (const rule of rules) {
    if (!DID_NOT_HOLD.includes(rule.status)) continue;
    for (const exchange of rule.evidence.flatMap((item) => item.exchanges)) {
      if (exchange.operationId === undefined) continue;
      const ids = found.get(exchange.operationId) ?? [];
      if (!ids.includes(rule.id)) ids.push(rule.id);
      found.set(exchange.operationId, ids);
    }
  }
  return found;
}

/** The property's status; one that held over no case at all says so rather than passed. */
function propertyBadge(property: JsonProperty): string {
  if (property.status === 'passed' && property.numRuns === 0) return '<span class="status not-exercised">no case</span>';
  return `<span class="status ${property.status === 'passed' ? 'pass' : 'fail'}">${e(property.status)}</span>`;
}

function propertyBlock(property: JsonProperty, report: JsonReport): string {
  const replay = ['provisioner-conformance', 'run', '--url', report.target.url, ...property.replay].map(shellWord).join(' ');
  return [
    `<article class="property p-${e(property.status)}"><h3>${propertyBadge(property)} <code>${e(property.name)}</code></h3>`,
    `<p>${e(property.message)}</p>`,
    `<p class="muted">${e(casesFact(property))} · seed ${property.seed}${property.interrupted ? ' · cut short by its time limit' : ''}</p>`,
    property.ruleIds.length > 0 ? `<p>Rules broken: ${property.ruleIds.map((id) => `<code>${e(id)}</code>`).join(', ')}</p>` : '',
    property.counterexample !== undefined ? `<span class="label">counterexample</span><pre>${e(property.counterexample)}</pre>` : '',
    property.notes.length > 0 ? `<ul>${property.notes.map((note) => `<li>${e(note)}</li>`).join('')}</ul>` : '',
    property.exchanges.map(exchangeBlock).join(''),
    property.status !== 'passed' ? `<span class="label">replay</span><pre>${e(replay)}</pre>` : '',
    '</article>',
  ].join('');
}

function filters(rules: readonly JsonRule[]): string {
  const present = STATUS_ORDER.filter((status) => rules.some((rule) => rule.status === status));
  const radios = ['all', ...present].map(
    (status) =>
      `<input type="radio" name="rule-filter" id="filter-${status}" value="${status}"${status === 'all' ? ' checked' : ''}><label for="filter-${status}">${status === 'all' ? `all (${rules.length})` : `${status} (${rules.filter((r) => r.status === status).length})`}</label>`,
  );
  return `<div class="filters" role="group" aria-label="Show rules by status">${radios.join('')}</div>`;
}

function ruleSort(a: JsonRule, b: JsonRule): number {
  return STATUS_ORDER.indexOf(a.status) - STATUS_ORDER.indexOf(b.status);
}

function settingsList(report: JsonReport): string {
  const s = report.settings;
  const items: Array<[string, string]> = [
    ['poll interval', `${s.pollInterval} ms`],
    ['answer timeout', `${s.answerTimeout} ms`],
    ['maxOperationDuration', `${s.maxOperationDuration.text} (${s.maxOperationDuration.source})`],
    ['changes path', s.changesPointer],
    ['plan only', String(s.planOnly)],
    ['strict', String(s.strict)],
    ['change sets', s.changeSets.join(', ')],
  ];
  return `<dl class="settings">${items.map(([k, v]) => `<dt>${e(k)}</dt><dd>${e(v)}</dd>`).join('')}</dl>`;
}

/**
 * The run as one self-contained HTML page: verdict, counts and each rule that did not hold on the first
 * screen, the operations timeline, the rules with filters, and every failure with its first cases. Inline
 * CSS, SVG and a few lines of script; a content security policy forbids fetching anything.
 */
export function renderHtmlReport(report: JsonReport, timeline: Timeline): string {
  return [...htmlReportPieces(report, timeline)].join('');
}

/**
 * {@link renderHtmlReport} in pieces, made as they are asked for, each holding whole elements (so a mask sees every
 * text whole in one piece): a long run's page is never one string, nor is its masked copy.
 */
export function* htmlReportPieces(report: JsonReport, timeline: Timeline): Generator<string> {
  const attention = report.rules.filter((rule) => ['error', 'fail', 'warn', 'advice', 'waived'].includes(rule.status)).sort(ruleSort);
  const s = report.summary;
  // Each count leads to where its rules are: the details of those that need attention, the table for the rest.
  const details = attention.length > 0 ? '#findings' : '#rules';
  const counts: Array<[string, number, string]> = [
    ['passed', s.passed, '#rules'],
    ['failed', s.failed, details],
    ['warned', s.warned, details],
    ['advice', s.advice, details],
    ['not exercised', s.notExercised, '#rules'],
    // Shown only when a rule was: most provisioners answer both ways, and a zero here would only puzzle.
    ...(s.notApplicable ? [['not applicable', s.notApplicable, '#rules'] as [string, number, string]] : []),
    ['skipped', s.skipped, '#rules'],
  ];
  yield `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(`${report.verdict}: ${report.target.url} — ${report.kit.name}`)}</title>
<style>${PAGE_STYLE}</style>
</head>
<body data-verdict="${e(report.verdict)}" data-operations="${timeline.lanes.length}">
<header>
<h1><span class="verdict ${e(report.verdict)}">${e(report.verdict)}</span> ${e(report.target.url)}</h1>
<p class="muted">${e(report.kit.name)} ${e(report.kit.version)} · started ${e(report.startedAt)} · ${(report.durationMs / 1000).toFixed(1)} s · exit code ${report.exitCode} · ${report.exchanges.total} exchanges</p>
<ul class="counts">${counts.map(([label, n, href]) => `<li><a href="${href}"><strong>${n}</strong> ${e(label)}</a></li>`).join('')}<li><a href="#timeline"><strong>${timeline.lanes.length}</strong> ${timeline.lanes.length === 1 ? 'operation' : 'operations'}</a></li></ul>
${report.conclusions.length > 0 ? `<ul class="conclusions">${report.conclusions.map((c) => `<li>${e(c)}</li>`).join('')}</ul>` : ''}
${didNotHold(report.rules)}
</header>
<main>
<section id="timeline"><h2>Operations (${timeline.lanes.length})</h2>
`;
  if (timeline.lanes.length > 0) {
    yield* timelineHtmlPieces(timeline, laneFindings(report.rules));
    yield timelineLegend();
  } else yield '<p>The provisioner accepted no operation (no 202): there is nothing to draw.</p>';
  yield `
</section>
<section id="rules"><h2>Rules</h2>
${filters(report.rules)}
<table class="rules"><thead><tr><th>status</th><th>rule</th><th>level</th><th>title</th><th>what the run showed</th></tr></thead>
<tbody>${[...report.rules].sort(ruleSort).map(ruleRow).join('')}</tbody></table>
</section>
`;
  // Each finding and each property apart: their exchanges are most of a failing run's page.
  if (attention.length > 0) {
    yield '<section id="findings"><h2>What did not hold</h2>';
    for (const rule of attention) yield ruleFinding(rule);
    yield '</section>';
  }
  yield '\n';
  if (report.properties.length > 0) {
    yield '<section id="properties"><h2>Property suites</h2>';
    for (const property of report.properties) yield propertyBlock(property, report);
    yield '</section>';
  }
  yield `
<section id="settings"><h2>Settings</h2>${settingsList(report)}</section>
</main>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}
