import { formatMs } from '../core/duration.js';
import { plural } from '../core/text.js';
import { wallClock } from '../report/expected-end.js';
import { shortId } from '../report/live-frame.js';
import { singleLine } from '../report/safe-text.js';
import type { ObservationProgress, ObserveEvent } from './observation-news.js';

/** Rules named one by one in a summary; past them, how many more. */
const RULES_NAMED = 8;

function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** `1 exchange`, `1,234 exchanges`. */
function counted(n: number, word: string): string {
  return `${count(n)} ${n === 1 ? word : `${word}s`}`;
}

/** The line an event prints, without a time: one line, whatever the provisioner sent. `short`: operation ids cut for a terminal. */
export function eventText(event: ObserveEvent, short = false): string {
  switch (event.kind) {
    case 'rule-broken': {
      const exchange = event.exchange === undefined ? '' : ` at exchange #${event.exchange}`;
      const operation = event.operationId === undefined ? 'a call answered at once' : `operation ${short ? shortId(event.operationId) : singleLine(event.operationId)}`;
      return `${event.level} rule ${event.ruleId} broken${exchange}, ${operation}: ${singleLine(event.note)} (its first break; later ones are counted)`;
    }
    case 'upstream-down':
      return `the provisioner stopped answering: ${plural(event.failedCalls, 'call')} in a row failed over ${formatMs(event.at - event.since)}, since ${wallClock(event.since)} (the latest: ${singleLine(event.last)})`;
    case 'upstream-up':
      return `the provisioner answers again (${event.status}) after ${formatMs(event.downForMs)}; ${plural(event.failedCalls, 'call')} failed meanwhile`;
  }
}

/** `answer.status ×12, operation.final ×1`, or `none`. */
export function brokenText(broken: Readonly<Record<string, number>>, named = RULES_NAMED): string {
  const entries = Object.entries(broken);
  if (entries.length === 0) return 'none';
  const shown = entries.slice(0, named).map(([id, times]) => `${id} ×${count(times)}`);
  return entries.length > named ? `${shown.join(', ')} and ${plural(entries.length - named, 'more rule')}` : shown.join(', ');
}

/** `1,234 exchanges; operations: 57 followed, 3 open, 54 ended; rules broken: answer.status ×12` */
export function countsText(progress: ObservationProgress): string {
  const { followed, open, ended } = progress.operations;
  const upstream = progress.upstream.answering ? '' : `; the provisioner not answering since ${wallClock(progress.upstream.since)}`;
  return `${counted(progress.exchanges, 'exchange')}; operations: ${count(followed)} followed, ${count(open)} open, ${count(ended)} ended; rules broken: ${brokenText(progress.broken)}${upstream}`;
}

/** A log's summary line: how long it has observed, then the counts; an idle one says for how long nothing changed. */
export function summaryText(progress: ObservationProgress, now: number, quietForMs?: number): string {
  const head = `observing for ${formatMs(now - progress.startedAt)}`;
  return quietForMs === undefined ? `${head}: ${countsText(progress)}` : `${head}, idle: nothing new for ${formatMs(quietForMs)}; ${countsText(progress)}`;
}

/** The live line: `observing 12m30s · 1,234 exchanges · operations 57 followed, 3 open, 54 ended · broken: answer.status ×12` */
export function liveText(progress: ObservationProgress, now: number): string {
  const { followed, open, ended } = progress.operations;
  const upstream = progress.upstream.answering ? '' : ` · provisioner NOT answering for ${formatMs(now - progress.upstream.since)}`;
  return `observing ${formatMs(now - progress.startedAt)} · ${counted(progress.exchanges, 'exchange')} · operations ${count(followed)} followed, ${count(open)} open, ${count(ended)} ended · broken: ${brokenText(progress.broken, 3)}${upstream}`;
}
