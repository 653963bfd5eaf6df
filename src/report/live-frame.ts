import { formatMs } from '../core/duration.js';
import { plural } from '../core/text.js';
import { displayWidth, fitColumns } from './columns.js';
import { singleLine } from './safe-text.js';
import type { Style } from './style.js';

/** The frames of the spinner a live line turns, one per redraw. */
export const SPINNER: readonly string[] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** A suite while it runs, as the live display shows it. */
export interface LiveSuite {
  name: string;
  startedAt: number;
  done: number;
  total?: number;
  /** Candidates a property tried while shrinking a failure. */
  shrinking?: number;
}

/** An operation the kit follows, as the live display shows it. */
export interface LiveOperation {
  id: string;
  label: string;
  /** The suite that started it, when the poller said; operations are grouped by it. */
  suite?: string;
  deadlineMs: number;
  acceptedAt: number;
  note?: string;
  /** The line's text while the latest read failed: the kit's words, so not quoted like a progress note. */
  failed?: string;
}

/** What the run waits for (`12 operations (…)`) and, when known, when it ends at the latest (`ends by 10:42:07 at the latest, in 3m12s (deadlines)`). */
export interface WaitingLine {
  what: string;
  end?: string;
}

/** Everything one frame shows, at one moment. */
export interface LiveView {
  now: number;
  /** The run's start, epoch ms. */
  startedAt: number;
  /** What is left of the time limit, when the run has one. */
  budget?: string;
  spinner: string;
  /** In the order they started. */
  suites: readonly LiveSuite[];
  /** In the order they were accepted: the oldest first. */
  operations: readonly LiveOperation[];
  /** Operations accepted so far per group (suite name), ended ones included. */
  accepted: ReadonlyMap<string, number>;
  /** Shown above the footer, a line each, when there is room. */
  waiting?: WaitingLine;
}

export interface ScreenSize {
  rows: number;
  columns: number;
}

// With many operations, this many of the oldest are still shown one by one: they are the ones worth watching.
const OLDEST_SHOWN = 5;
// Below this width a line says too little to be worth drawing.
const NARROWEST = 12;
const OTHER_GROUP = 'operations';

export function casesText(suite: LiveSuite): string {
  const cases = suite.total === undefined ? `${plural(suite.done, 'case')} done` : `${suite.done}/${suite.total} cases`;
  return suite.shrinking === undefined ? cases : `${cases}, shrinking a failure: ${plural(suite.shrinking, 'candidate')} tried`;
}

/** The ISO 8601 form registrations write maxOperationDuration in: PT5M, PT1M30S, PT0.5S. */
export function isoDuration(ms: number): string {
  const total = Math.round(ms);
  if (total <= 0) return 'PT0S';
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor((total % 3_600_000) / 60_000);
  const seconds = (total % 60_000) / 1000;
  return `PT${hours > 0 ? `${hours}H` : ''}${minutes > 0 ? `${minutes}M` : ''}${seconds > 0 ? `${seconds}S` : ''}`;
}

/** Operation ids shortened for progress lines: the ends are enough to tell them apart. */
export function shortId(id: string): string {
  const safe = singleLine(id);
  return safe.length > 12 ? `${safe.slice(0, 4)}…${safe.slice(-4)}` : safe;
}

function suiteLine(view: LiveView, suite: LiveSuite, width: number, style: Style): string {
  const budget = view.budget === undefined ? '' : `  ${view.budget}`;
  return style.bold(fitColumns(`${view.spinner} ${suite.name}  ${casesText(suite)}  ${formatMs(view.now - suite.startedAt)}${budget}`, width));
}

function operationLine(view: LiveView, operation: LiveOperation, width: number, style: Style): string {
  const head = `${view.spinner} ${operation.label}  ${shortId(operation.id)}  ${formatMs(view.now - operation.acceptedAt)} / ${isoDuration(operation.deadlineMs)}`;
  if (displayWidth(head) >= width) return fitColumns(head, width);
  const room = width - displayWidth(head) - 4;
  let note = operation.note !== undefined && room >= 8 ? `  "${fitColumns(operation.note, room)}"` : '';
  if (operation.failed !== undefined && room >= 8) note = `  ${fitColumns(operation.failed, room + 2)}`;
  return style.cyan(view.spinner) + head.slice(view.spinner.length) + style.dim(note);
}

/** `  scenario/burst: 50 operations, 38 in progress, oldest 6.2s` */
function groupLine(view: LiveView, name: string, running: readonly LiveOperation[], width: number, style: Style): string {
  const accepted = Math.max(view.accepted.get(name) ?? 0, running.length);
  const oldest = Math.min(...running.map((operation) => operation.acceptedAt));
  return style.dim(fitColumns(`  ${name}: ${plural(accepted, 'operation')}, ${running.length} in progress, oldest ${formatMs(view.now - oldest)}`, width));
}

function footerText(view: LiveView): string {
  const budget = view.budget === undefined ? '' : `, ${view.budget}`;
  return `${plural(view.operations.length, 'operation')} running, ${formatMs(view.now - view.startedAt)} since the run started${budget}`;
}

function groupsOf(operations: readonly LiveOperation[]): Map<string, LiveOperation[]> {
  const groups = new Map<string, LiveOperation[]>();
  for (const operation of operations) {
    const name = operation.suite ?? OTHER_GROUP;
    const group = groups.get(name);
    if (group) group.push(operation);
    else groups.set(name, [operation]);
  }
  return groups;
}

/**
 * The rows the block may take on a screen of `size`: a third of them, so that at least twice as many rows of
 * the log stay in sight above it (at 30 rows, 10 for the block and 19 for the log).
 */
export function blockRows(size: ScreenSize): number {
  return Math.floor(size.rows / 3);
}

/** Up to `room` lines out of `lines`, the last one saying how many were left out when they do not all fit. */
function within(lines: readonly string[], room: number, more: (left: number) => string): string[] {
  if (lines.length <= room) return [...lines];
  if (room <= 0) return [];
  return [...lines.slice(0, room - 1), more(lines.length - room + 1)];
}

/**
 * The live lines of one frame, laid out for a screen of `size`: never more lines than a third of its rows
 * (`blockRows`: the log above stays in sight), never wider than its columns less one (a full line makes some
 * terminals wrap). Suites first, one line each; then the operations one by one when they fit, or else one
 * line per group and the few oldest; the footer last. What cannot fit is folded into one `… and N more`
 * line, never scrolled.
 */
export function liveFrame(view: LiveView, size: ScreenSize, style: Style): string[] {
  const width = size.columns - 1;
  const rows = blockRows(size);
  if (rows <= 0 || width < NARROWEST) return [];
  if (view.suites.length === 0 && view.operations.length === 0) return [];
  const footer = style.dim(fitColumns(footerText(view), width));
  if (rows === 1) return [footer];
  // What the run waits for and when it ends go with the footer, the end before what is waited for: the lines
  // above show that too.
  const waiting = view.waiting === undefined ? [] : [`waiting for ${view.waiting.what}`, ...(view.waiting.end === undefined ? [] : [view.waiting.end])];
  const tail = [...waiting.map((line) => style.dim(fitColumns(line, width))), footer];
  if (rows <= tail.length) return tail.slice(-rows);
  let room = rows - tail.length;
  const suites = within(
    view.suites.map((suite) => suiteLine(view, suite, width, style)),
    room,
    (left) => style.dim(fitColumns(`… and ${plural(left, 'more suite')} running`, width)),
  );
  room -= suites.length;
  const each = (operations: readonly LiveOperation[]): string[] => operations.map((operation) => operationLine(view, operation, width, style));
  if (view.operations.length <= room) return [...suites, ...each(view.operations), ...tail];
  const groups = within(
    [...groupsOf(view.operations)].map(([name, running]) => groupLine(view, name, running, width, style)),
    room,
    (left) => style.dim(fitColumns(`… and ${plural(left, 'more group')} of operations`, width)),
  );
  room -= groups.length;
  return [...suites, ...groups, ...each(view.operations.slice(0, Math.max(0, Math.min(OLDEST_SHOWN, room)))), ...tail];
}
