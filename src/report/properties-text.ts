import type { PropertyResult } from '../core/property-result.js';
import { RULES } from '../rules/index.js';
import type { RunOutcome } from '../runner/outcome.js';
import { curlFor } from './curl.js';
import { casesFact } from './property-cases.js';
import { renderExchange } from './exchange-text.js';
import { replayCommand } from './replay.js';
import { singleLine, stripControl } from './safe-text.js';
import type { Style } from './style.js';

// A counterexample is usually a handful of exchanges; past this the rest are named by seq.
const EXCHANGES_SHOWN = 4;
const NOTES_SHOWN = 5;

const MARKS: Record<PropertyResult['status'], string> = { passed: '✓', failed: '✗', flaky: '?' };

function paint(status: PropertyResult['status'], style: Style): (text: string) => string {
  return status === 'passed' ? style.green : status === 'failed' ? style.red : style.yellow;
}

function statusLine(result: PropertyResult, nameWidth: number, style: Style): string {
  // Held over no case at all is no pass: the time limit was spent before one ended.
  const status = result.numRuns === 0 && result.status === 'passed' ? style.dim(`– ${'no case'.padEnd(7)}`) : paint(result.status, style)(`${MARKS[result.status]} ${result.status.padEnd(7)}`);
  const facts = [casesFact(result), `seed ${result.seed}`];
  if (result.path !== undefined) facts.push(`path ${result.path}`);
  const stopped = result.interrupted ? style.dim('  (stopped by its time limit)') : '';
  return `  ${status} ${result.name.padEnd(nameWidth)}${facts.join(', ')}${stopped}`;
}

function indented(text: string, indent: string): string[] {
  return stripControl(text)
    .split('\n')
    .map((line) => (line.trim() === '' ? '' : indent + line));
}

function exchangeLines(seqs: readonly number[], outcome: RunOutcome, style: Style): string[] {
  const lines: string[] = [];
  const shown = seqs.slice(0, EXCHANGES_SHOWN);
  for (const seq of shown) {
    const exchange = outcome.transcript.bySeq(seq);
    if (!exchange) continue;
    lines.push(renderExchange(exchange, { startedAt: outcome.startedAt, showSecrets: outcome.settings.showSecrets, style, indent: '      ' }));
    lines.push(`      ${style.dim('repeat:')} ${curlFor(exchange, outcome.settings.showSecrets)}`);
  }
  if (seqs.length > shown.length) lines.push(style.dim(`      … and ${seqs.slice(EXCHANGES_SHOWN).map((seq) => `#${seq}`).join(', ')}`));
  return lines;
}

function noteLines(notes: readonly string[], style: Style): string[] {
  const lines = notes.slice(0, NOTES_SHOWN).map((note) => `  • ${singleLine(note)}`);
  if (notes.length > NOTES_SHOWN) lines.push(style.dim(`  … ${notes.length - NOTES_SHOWN} more`));
  return lines;
}

function rerunLines(result: PropertyResult, outcome: RunOutcome, style: Style): string[] {
  if (result.reruns.length === 0) return [];
  const reproduced = result.reruns.findIndex((rerun) => rerun.reproduced);
  if (reproduced >= 0) return [`  re-run: the counterexample broke the same rule again on re-run ${reproduced + 1}`];
  const lines = [style.yellow(`  re-run: none of ${result.reruns.length} re-runs broke the same rule: the failure did not repeat (flaky)`)];
  const last = result.reruns[result.reruns.length - 1]!;
  lines.push('  what the last re-run saw:', ...noteLines(last.notes.length > 0 ? last.notes : ['every rule held'], style));
  lines.push(...exchangeLines(last.exchanges, outcome, style));
  return lines;
}

/** What a failed or flaky property found: the rules, the shrunk counterexample, its exchanges and how to replay it. */
function detailBlock(result: PropertyResult, outcome: RunOutcome, invocation: readonly string[] | undefined, style: Style): string[] {
  const lines = [paint(result.status, style)(`${MARKS[result.status]} ${result.name}`) + ` (${result.status})`];
  for (const id of result.ruleIds) {
    const sentence = RULES.find((rule) => rule.id === id)?.sentence;
    lines.push(`  broke ${style.bold(id)}${sentence ? `: ${sentence}` : ''}`);
  }
  if (result.counterexample !== undefined) lines.push('  counterexample (shrunk):', ...indented(result.counterexample, '      '));
  lines.push(...noteLines(result.notes, style));
  lines.push(...exchangeLines(result.exchanges, outcome, style));
  lines.push(...rerunLines(result, outcome, style));
  lines.push(`  replay: ${replayCommand(result, invocation, outcome.settings.showSecrets)}`);
  return lines;
}

/** The Properties section of the summary: one line per property, then the details of each that did not hold. */
export function propertyLines(outcome: RunOutcome, invocation: readonly string[] | undefined, style: Style): string[] {
  if (outcome.properties.length === 0) return [];
  const nameWidth = Math.max(...outcome.properties.map((result) => result.name.length)) + 2;
  const lines = [style.bold('Properties'), ...outcome.properties.map((result) => statusLine(result, nameWidth, style))];
  for (const result of outcome.properties) {
    if (result.status !== 'passed') lines.push('', ...detailBlock(result, outcome, invocation, style));
  }
  return lines;
}
