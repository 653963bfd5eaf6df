import type { Evidence, RuleResult, RuleStatus } from '../rules/types.js';
import { plural } from '../core/text.js';
import { formatMs } from '../core/duration.js';
import type { Verdict } from '../core/verdict.js';
import type { RunOutcome, Summary } from '../runner/outcome.js';
import { casesJudgedText } from '../runner/budget-outcome.js';
import { displayWidth, styledWidth, wrapColumns } from './columns.js';
import { curlFor } from './curl.js';
import { renderExchange } from './exchange-text.js';
import { propertyLines } from './properties-text.js';
import { singleLine, stripControl } from './safe-text.js';
import { createStyle, type Style } from './style.js';
import { inTimeOrder, piecesInTimeOrder } from './time-order.js';

export interface SummaryOptions {
  color: boolean;
  /** The run's command-line arguments, so that a property's replay line repeats them. */
  invocation?: readonly string[];
  /** Outputs asked for that could not be written (e.g. `the JSON report /dev/full`): the verdict line names them and the exit code is 2. */
  missingOutputs?: readonly string[];
  /** The terminal's width, when the summary goes to one: its lines are then wrapped to fit it. */
  columns?: number;
}

// Enough to show what went wrong without burying the next rule.
const EXCHANGES_PER_EVIDENCE = 3;
const EVIDENCE_PER_RULE = 5;

const STATUS_WIDTH = 'not-exercised'.length + 2;
const CONCLUSION_INDENT = '      ';
// A wrapped line's later rows go this much further in than its first.
const WRAP_INDENT = '    ';
// Commands meant to be copied are never wrapped: a line break would cut them in two when pasted.
const COMMAND_LINE = /^ *(repeat|replay): /;
// Narrower than this, wrapping would leave a word or two a row: the terminal may wrap instead.
const NARROWEST_SUMMARY = 40;
const MIN_ID_WIDTH = 34;

/** The status column: wide enough for every status the run shows. */
function statusWidth(rules: readonly RuleResult[]): number {
  return Math.max(STATUS_WIDTH, ...rules.map((rule) => rule.status.length + 2));
}

const MARKS: Record<RuleStatus, string> = {
  pass: '✓',
  fail: '✗',
  error: '✗',
  warn: '!',
  advice: '~',
  'not-applicable': '○',
  'not-exercised': '–',
  skip: '–',
  waived: '≈',
};

function paint(status: RuleStatus, style: Style): (text: string) => string {
  switch (status) {
    case 'pass':
      return style.green;
    case 'fail':
    case 'error':
      return style.red;
    case 'warn':
      return style.yellow;
    case 'advice':
      return style.cyan;
    case 'not-applicable':
    case 'not-exercised':
    case 'skip':
    case 'waived':
      return style.dim;
  }
}

/** Multi-line text from the run, indented, with anything a terminal would act on removed. */
function indented(text: string, indent: string): string[] {
  return stripControl(text)
    .split('\n')
    .map((line) => (line.trim() === '' ? '' : indent + line));
}

function runSection(outcome: RunOutcome, style: Style, width?: number): string[] {
  const lines: string[] = [];
  if (outcome.conclusions.length > 0) {
    lines.push(style.bold('Conclusions'));
    for (const conclusion of outcome.conclusions) lines.push(`  • ${singleLine(conclusion)}`);
    lines.push('');
  }
  if (outcome.operations.length > 0) {
    lines.push(style.bold('What the control plane would conclude'));
    for (const op of outcome.operations) {
      const name = op.changeSet === undefined ? op.kind : `${op.kind} ${op.changeSet}`;
      const head = `  ${singleLine(name)}  ${style.dim(singleLine(op.operationId))}`;
      const conclusion = singleLine(op.conclusion);
      // Too wide for the screen, the conclusion goes on a row of its own below the operation it is about.
      if (width !== undefined && styledWidth(head) + 2 + displayWidth(conclusion) > width) lines.push(head, `${CONCLUSION_INDENT}${conclusion}`);
      else lines.push(`${head}  ${conclusion}`);
    }
    lines.push('');
  }
  return lines;
}

function ruleLines(rules: RuleResult[], style: Style): string[] {
  const idWidth = Math.max(MIN_ID_WIDTH, ...rules.map((rule) => rule.id.length + 2));
  const width = statusWidth(rules);
  const lines: string[] = [];
  for (const rule of rules) {
    const status = `${MARKS[rule.status]} ${rule.status.padEnd(width)}`;
    const rest = `${rule.id.padEnd(idWidth)}${singleLine(rule.title)}`;
    const quiet = rule.status === 'skip' || rule.status === 'not-exercised' || rule.status === 'not-applicable';
    lines.push(quiet ? style.dim(status + rest) : paint(rule.status, style)(status) + rest);
    // Why it was not judged: what the run lacked, or the way of answering the provisioner never chose.
    if (rule.status === 'not-exercised' || rule.status === 'not-applicable') {
      lines.push(...indented(rule.message, ' '.repeat(2 + width)).map((line) => (line === '' ? line : style.dim(line))));
    }
    if (rule.waiver) {
      const waived = `a ${rule.waiver.status} waived by the baseline until ${rule.waiver.expires}: ${rule.waiver.reason}`;
      lines.push(...indented(waived, ' '.repeat(2 + width)).map((line) => (line === '' ? line : style.dim(line))));
    }
  }
  return lines;
}

function evidenceLines(evidence: Evidence, outcome: RunOutcome, style: Style): string[] {
  const lines = [`  • ${singleLine(evidence.note)}`];
  // The piece's first exchanges in the order they happened, as the HTML report shows them.
  const ordered = inTimeOrder(evidence.exchanges, (seq) => outcome.transcript.bySeq(seq)?.sentAt, (seq) => seq);
  for (const seq of ordered.slice(0, EXCHANGES_PER_EVIDENCE)) {
    const exchange = outcome.transcript.bySeq(seq);
    if (exchange === undefined) {
      lines.push(`      #${seq} ${style.dim('(not in the transcript)')}`);
      continue;
    }
    lines.push(renderExchange(exchange, { startedAt: outcome.startedAt, showSecrets: outcome.settings.showSecrets, style, indent: '      ' }));
  }
  const more = evidence.exchanges.length - EXCHANGES_PER_EVIDENCE;
  if (more > 0) {
    const seqs = ordered.slice(EXCHANGES_PER_EVIDENCE, EXCHANGES_PER_EVIDENCE + 10).map((seq) => `#${seq}`);
    const list = more > seqs.length ? `${seqs.join(', ')}, …` : seqs.join(', ');
    lines.push(style.dim(`      … ${plural(more, 'more exchange')} left out (${list})`));
  }
  return lines;
}

function repeatLine(rule: RuleResult, outcome: RunOutcome): string | undefined {
  const seq = rule.evidence[0]?.exchanges[0];
  const exchange = seq === undefined ? undefined : outcome.transcript.bySeq(seq);
  return exchange === undefined ? undefined : `  repeat: ${curlFor(exchange, outcome.settings.showSecrets)}`;
}

function detailBlock(rule: RuleResult, outcome: RunOutcome, style: Style): string[] {
  const colour = paint(rule.status, style);
  const count = rule.count === undefined ? '' : `, ${plural(rule.count, 'time')}`;
  const lines = [colour(`${MARKS[rule.status]} ${rule.id}`) + ` (${rule.level}, ${rule.status}${count})`];
  lines.push(...indented(rule.sentence, '  '));
  lines.push(...indented(rule.message, '  ').map((line) => (line === '' ? line : style.bold(line))));
  // The oldest pieces first: evidence is shown in one order everywhere, as the run happened.
  const ordered = piecesInTimeOrder(rule.evidence, (evidence) => evidence.exchanges, (seq) => outcome.transcript.bySeq(seq)?.sentAt, (seq) => seq);
  for (const evidence of ordered.slice(0, EVIDENCE_PER_RULE)) lines.push(...evidenceLines(evidence, outcome, style));
  const moreEvidence = rule.evidence.length - EVIDENCE_PER_RULE;
  if (moreEvidence > 0) lines.push(style.dim(`  … ${plural(moreEvidence, 'more piece')} of evidence left out`));
  const repeat = repeatLine(rule, outcome);
  if (repeat !== undefined) lines.push(repeat);
  return lines;
}

/** A broken rule's whole story as plain text: sentence, message, evidence with exchanges, and a curl to repeat it. */
export function ruleDetailText(rule: RuleResult, outcome: RunOutcome): string {
  return detailBlock(rule, outcome, createStyle(false)).join('\n');
}

/** `20 passed, 1 failed, 2 warned, 4 not exercised`, then not applicable, advice, skipped and kit errors only when there are any. */
export function summaryLine(summary: Summary): string {
  const parts = [`${summary.passed} passed`, `${summary.failed} failed`, `${summary.warned} warned`, `${summary.notExercised} not exercised`];
  if (summary.notApplicable) parts.push(`${summary.notApplicable} not applicable`);
  if (summary.advice > 0) parts.push(`${summary.advice} advice`);
  if (summary.skipped > 0) parts.push(`${summary.skipped} skipped`);
  if (summary.waived) parts.push(`${summary.waived} waived`);
  if (summary.errors) parts.push(`${plural(summary.errors, 'rule')} the kit failed to judge`);
  return parts.join(', ');
}

/** The run's budget: what it used and, when it ran out, what got fewer cases than asked. */
export function budgetLines(outcome: RunOutcome, style: Style): string[] {
  const budget = outcome.budget;
  if (!budget) return [];
  if (!budget.exhausted) return [style.dim(`time limit ${budget.limit.text}: ${formatMs(budget.spentMs)} used, not reached`)];
  const lines = [style.yellow(`time limit ${budget.limit.text} spent after ${formatMs(budget.spentMs)}: driving stopped there, and what had happened was judged`)];
  if (budget.notExercised.length > 0) lines.push(`  ${plural(budget.notExercised.length, 'rule')} got no case: ${budget.notExercised.join(', ')}`);
  for (const property of budget.properties) {
    if (!property.interrupted && property.casesJudged >= property.casesAsked) continue;
    lines.push(`  ${singleLine(property.name)}: ${casesJudgedText(property)} judged`);
  }
  return lines;
}

/**
 * The rules that did not hold, by id, just above the counts: after pages of evidence, the last lines a reader
 * sees name what to look up. Undefined when every rule held.
 */
export function didNotHoldLine(rules: readonly RuleResult[], style: Style): string | undefined {
  const broken = rules.filter((rule) => rule.status === 'error' || rule.status === 'fail' || rule.status === 'warn');
  if (broken.length === 0) return undefined;
  const items = broken.map((rule) => `${paint(rule.status, style)(rule.id)} (${rule.status}${rule.count === undefined ? '' : `, ${plural(rule.count, 'time')}`})`);
  return `did not hold: ${items.join(', ')}`;
}

function verdictLine(verdict: Verdict, exitCode: number, missing: readonly string[], style: Style): string {
  const word = verdict === 'pass' ? style.green(verdict) : style.red(verdict);
  if (missing.length === 0) return `verdict: ${word} (exit ${exitCode})`;
  return `verdict: ${word}, but ${missing.join(' and ')} could not be written (exit ${OUTPUT_MISSING_EXIT_CODE})`;
}

/** The exit code of a run whose judgement stands but an output it was asked for is missing: a kit error's. */
export const OUTPUT_MISSING_EXIT_CODE = 2;

/**
 * Lines wrapped between words to `width`, each wrapped row indented past the line's own indent, so
 * that the terminal never wraps them; a command meant to be copied stays whole.
 */
function fitted(lines: readonly string[], width: number | undefined): string[] {
  if (width === undefined) return [...lines];
  // An exchange is one entry of several lines.
  return lines.flatMap((entry) => entry.split('\n')).flatMap((line) => {
    // A command's label may be styled (a property's `repeat:` is dimmed): it is known by its text.
    if (styledWidth(line) <= width || COMMAND_LINE.test(line.replace(/\u001b\[\d*m/g, ''))) return [line];
    const indent = /^ */.exec(line.replace(/\u001b\[\d*m/g, ''))![0];
    return wrapColumns(line, width, indent + WRAP_INDENT);
  });
}

/** The end-of-run text: what the run concluded, one line per rule, the evidence for each broken rule, then the counts and verdict. */
export function renderSummary(outcome: RunOutcome, options: SummaryOptions): string {
  const style = createStyle(options.color);
  // One column short of the screen: a line as wide as the screen makes some terminals wrap.
  const width = options.columns === undefined ? undefined : Math.max(NARROWEST_SUMMARY, options.columns - 1);
  const run = runSection(outcome, style, width);
  // A target that answered nothing: what was tried and what it got say it all; no rule was judged.
  if (outcome.verdict === 'unreachable') return `${fitted([...run, verdictLine(outcome.verdict, outcome.exitCode, options.missingOutputs ?? [], style)], width).join('\n')}\n`;
  const lines = [...run, style.bold('Rules'), ...ruleLines(outcome.rules, style)];
  for (const rule of outcome.rules) {
    if (rule.status !== 'fail' && rule.status !== 'error' && rule.status !== 'warn' && rule.status !== 'advice') continue;
    lines.push('', ...detailBlock(rule, outcome, style));
  }
  const properties = propertyLines(outcome, options.invocation, style);
  if (properties.length > 0) lines.push('', ...properties);
  const budget = budgetLines(outcome, style);
  if (budget.length > 0) lines.push('', ...budget);
  const broken = didNotHoldLine(outcome.rules, style);
  lines.push('', ...(broken === undefined ? [] : [broken]), summaryLine(outcome.summary), verdictLine(outcome.verdict, outcome.exitCode, options.missingOutputs ?? [], style));
  return `${fitted(lines, width).join('\n')}\n`;
}
