import { formatMs } from '../core/duration.js';
import { plural } from '../core/text.js';
import { displayWidth, fitColumns } from './columns.js';
import { singleLine } from './safe-text.js';
import { createStyle, type Style } from './style.js';
import type { SuiteProgress } from '../core/suite-progress.js';

/** Live progress while suites and their operations run. */
export interface Progress extends SuiteProgress {
  /** An operation was accepted with 202; `deadlineMs` is how long the control plane waits for it (maxOperationDuration). */
  operationAccepted(id: string, changeSet: string | undefined, kind: 'plan' | 'apply', deadlineMs: number): void;
  /**
   * A read of the operation answered; `note` is its progress note, when it had one. `failed` says what the
   * read got when it told nothing of the work ("read answered 502"); without it the read said in_progress.
   */
  operationRead(id: string, note: string | undefined, failed?: string): void;
  /** Polling of the operation ended with what the control plane would conclude, e.g. `final: succeeded`. */
  operationEnded(id: string, conclusion: string): void;
  message(text: string): void;
  /** Stops redrawing and removes the live lines. */
  stop(): void;
}

export type ProgressStream = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

export interface ProgressOptions {
  color: boolean;
  /** The run's start, epoch ms. */
  startedAt: number;
  /** The clock, epoch ms; tests pass their own. */
  now?: () => number;
  /** The run's --time-limit, when it has one: what is left of it is shown. */
  timeLimitMs?: number;
}

interface RunningSuite {
  name: string;
  startedAt: number;
  done: number;
  total?: number;
  /** Candidates a property tried while shrinking a failure. */
  shrinking?: number;
}

/** What the progress lines need of the run's clock and budget. */
interface RunClock {
  now: () => number;
  startedAt: number;
  timeLimitMs?: number;
}

/** `12.4s left of PT2M`, `time limit spent`, or nothing without a time limit. */
export function budgetLeft(clock: RunClock): string | undefined {
  if (clock.timeLimitMs === undefined) return undefined;
  const left = clock.startedAt + clock.timeLimitMs - clock.now();
  return left > 0 ? `${formatMs(left)} left of ${isoDuration(clock.timeLimitMs)}` : `time limit ${isoDuration(clock.timeLimitMs)} spent`;
}

function casesText(suite: RunningSuite): string {
  const cases = suite.total === undefined ? `${plural(suite.done, 'case')} done` : `${suite.done}/${suite.total} cases`;
  return suite.shrinking === undefined ? cases : `${cases}, shrinking a failure: ${plural(suite.shrinking, 'candidate')} tried`;
}

/** Who listens for suites, the same on a terminal and in a log: the suites still running, by name. */
class SuiteBoard {
  readonly running = new Map<string, RunningSuite>();

  started(name: string, total: number | undefined, at: number): void {
    this.running.set(name, { name, startedAt: at, done: 0, ...(total !== undefined && { total }) });
  }

  done(name: string, done: number, total: number | undefined, shrinking: number | undefined): void {
    const suite = this.running.get(name);
    if (!suite) return;
    suite.done = done;
    if (total !== undefined) suite.total = total;
    if (shrinking !== undefined) suite.shrinking = shrinking;
  }

  ended(name: string): RunningSuite | undefined {
    const suite = this.running.get(name);
    this.running.delete(name);
    return suite;
  }
}

interface RunningOperation {
  id: string;
  label: string;
  deadlineMs: number;
  acceptedAt: number;
  note?: string;
  /** A read has said in_progress: a failed read after it does not make the work unknown. */
  known?: boolean;
  /** The live line's text while the latest read failed: the kit's words, so not quoted like a progress note. */
  failed?: string;
}

// Redraws at most this often: enough to look alive, little enough to stay cheap over SSH.
const REDRAW_MS = 100;
const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
// Log lines have no known width; a note longer than this says nothing more.
const LOG_NOTE_WIDTH = 160;
const DEFAULT_COLUMNS = 80;

/** Operation ids shortened for progress lines: the ends are enough to tell them apart. */
export function shortId(id: string): string {
  const safe = singleLine(id);
  return safe.length > 12 ? `${safe.slice(0, 4)}…${safe.slice(-4)}` : safe;
}

/** A duration in ISO 8601 form, as registrations write maxOperationDuration: PT5M, PT1M30S, PT0.5S. */
export function isoDuration(ms: number): string {
  const total = Math.round(ms);
  if (total <= 0) return 'PT0S';
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor((total % 3_600_000) / 60_000);
  const seconds = (total % 60_000) / 1000;
  return `PT${hours > 0 ? `${hours}H` : ''}${minutes > 0 ? `${minutes}M` : ''}${seconds > 0 ? `${seconds}S` : ''}`;
}

function clockTime(at: number): string {
  const date = new Date(at);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}

function labelOf(kind: 'plan' | 'apply', changeSet: string | undefined): string {
  return changeSet === undefined ? kind : `${kind} ${singleLine(changeSet)}`;
}

/** "read answered 502; last known: in_progress": a failed read's line says what it answered, then what was known before. */
function failedReadText(operation: RunningOperation | undefined, failed: string): string {
  return `${failed}; ${operation?.known === true ? 'last known: in_progress' : 'nothing known yet'}`;
}

/** Plain timestamped lines, for logs and CI: one when an operation starts, when its note changes, and when it ends. */
class LogProgress implements Progress {
  private readonly running = new Map<string, RunningOperation>();
  private readonly suites = new SuiteBoard();
  private readonly now: () => number;

  constructor(
    private readonly stream: ProgressStream,
    private readonly clock: RunClock,
  ) {
    this.now = clock.now;
  }

  suiteStarted(name: string, total?: number): void {
    this.suites.started(name, total, this.now());
  }

  casesDone(name: string, done: number, total?: number, shrinking?: number): void {
    this.suites.done(name, done, total, shrinking);
  }

  // A log is not redrawn: one line when a suite ends says what it did and what is left of the budget.
  suiteEnded(name: string, summary: string): void {
    const suite = this.suites.ended(name);
    const took = suite ? ` after ${formatMs(this.now() - suite.startedAt)}` : '';
    const left = budgetLeft(this.clock);
    this.line(`${singleLine(name)} ended${took}: ${fitColumns(singleLine(summary), LOG_NOTE_WIDTH)}${left === undefined ? '' : ` (${left})`}`);
  }

  private line(text: string): void {
    this.stream.write(`[${clockTime(this.now())}] ${text}\n`);
  }

  operationAccepted(id: string, changeSet: string | undefined, kind: 'plan' | 'apply', deadlineMs: number): void {
    const label = labelOf(kind, changeSet);
    this.running.set(id, { id, label, deadlineMs, acceptedAt: this.now() });
    this.line(`accepted ${label} as ${singleLine(id)} (waits up to ${isoDuration(deadlineMs)})`);
  }

  operationRead(id: string, note: string | undefined, failed?: string): void {
    const operation = this.running.get(id);
    if (failed === undefined && operation) operation.known = true;
    const text = failed === undefined ? (note === undefined ? undefined : `in_progress: ${note}`) : failedReadText(operation, failed);
    if (text === undefined) return;
    const safe = fitColumns(singleLine(text), LOG_NOTE_WIDTH);
    if (operation?.note === safe) return;
    if (operation) operation.note = safe;
    this.line(`${shortId(id)} ${safe}`);
  }

  operationEnded(id: string, conclusion: string): void {
    this.running.delete(id);
    this.line(`${shortId(id)} ${singleLine(conclusion)}`);
  }

  message(text: string): void {
    for (const line of text.split('\n')) {
      const safe = singleLine(line);
      if (safe !== '') this.line(safe);
    }
  }

  stop(): void {
    this.running.clear();
    this.suites.running.clear();
  }
}

/** A block of live lines on a terminal, one per running operation, redrawn in place. */
class LiveProgress implements Progress {
  private readonly running = new Map<string, RunningOperation>();
  private readonly suites = new SuiteBoard();
  private readonly style: Style;
  private readonly startedAt: number;
  private readonly now: () => number;
  private drawnLines = 0;
  private frame = 0;
  private stopped = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly stream: ProgressStream,
    color: boolean,
    private readonly clock: RunClock,
  ) {
    this.startedAt = clock.startedAt;
    this.now = clock.now;
    this.style = createStyle(color);
    this.timer = setInterval(() => this.redraw(), REDRAW_MS);
    // Progress must never keep the process alive on its own.
    this.timer.unref();
  }

  private get columns(): number {
    return Math.max(20, this.stream.columns ?? DEFAULT_COLUMNS);
  }

  /** Moves the cursor to where the block starts and clears everything below. */
  private erase(): string {
    if (this.drawnLines === 0) return '';
    const text = `\r\u001b[${this.drawnLines}A\u001b[J`;
    this.drawnLines = 0;
    return text;
  }

  /** A line that stays: printed above the block, which comes back at the next redraw. */
  private permanent(line: string): void {
    this.stream.write(`${this.erase()}${line}\n`);
  }

  private liveLine(operation: RunningOperation, spinner: string): string {
    // One column spare: a line that fills the last column makes some terminals wrap, and the block would drift.
    const width = this.columns - 1;
    const elapsed = formatMs(this.now() - operation.acceptedAt);
    const head = `${spinner} ${operation.label}  ${shortId(operation.id)}  ${elapsed} / ${isoDuration(operation.deadlineMs)}`;
    if (displayWidth(head) >= width) return fitColumns(head, width);
    const room = width - displayWidth(head) - 4;
    let note = operation.note !== undefined && room >= 8 ? `  "${fitColumns(operation.note, room)}"` : '';
    if (operation.failed !== undefined && room >= 8) note = `  ${fitColumns(operation.failed, room + 2)}`;
    return this.style.cyan(spinner) + head.slice(spinner.length) + this.style.dim(note);
  }

  private suiteLine(suite: RunningSuite, spinner: string): string {
    const left = budgetLeft(this.clock);
    const head = `${spinner} ${singleLine(suite.name)}  ${casesText(suite)}  ${formatMs(this.now() - suite.startedAt)}${left === undefined ? '' : `  ${left}`}`;
    return this.style.bold(fitColumns(head, this.columns - 1));
  }

  private footer(): string {
    const count = this.running.size;
    const left = budgetLeft(this.clock);
    return `${plural(count, 'operation')} running, ${formatMs(this.now() - this.startedAt)} since the run started${left === undefined ? '' : `, ${left}`}`;
  }

  private redraw(): void {
    if (this.stopped || (this.running.size === 0 && this.suites.running.size === 0 && this.drawnLines === 0)) return;
    this.frame = (this.frame + 1) % SPINNER.length;
    const spinner = SPINNER[this.frame]!;
    const lines = [
      ...[...this.suites.running.values()].map((suite) => this.suiteLine(suite, spinner)),
      ...[...this.running.values()].map((operation) => this.liveLine(operation, spinner)),
    ];
    if (lines.length > 0) lines.push(this.style.dim(fitColumns(this.footer(), this.columns - 1)));
    const text = this.erase() + lines.map((line) => `${line}\n`).join('');
    this.drawnLines = lines.length;
    this.stream.write(text);
  }

  suiteStarted(name: string, total?: number): void {
    if (this.stopped) return;
    this.suites.started(name, total, this.now());
  }

  casesDone(name: string, done: number, total?: number, shrinking?: number): void {
    this.suites.done(name, done, total, shrinking);
  }

  suiteEnded(name: string, summary: string): void {
    if (this.stopped) return;
    const suite = this.suites.ended(name);
    const took = suite ? `  ${formatMs(this.now() - suite.startedAt)}` : '';
    this.permanent(`${this.style.dim('•')} ${singleLine(name)}${took}  ${singleLine(summary)}`);
  }

  operationAccepted(id: string, changeSet: string | undefined, kind: 'plan' | 'apply', deadlineMs: number): void {
    if (this.stopped) return;
    this.running.set(id, { id, label: labelOf(kind, changeSet), deadlineMs, acceptedAt: this.now() });
  }

  operationRead(id: string, note: string | undefined, failed?: string): void {
    const operation = this.running.get(id);
    if (!operation) return;
    operation.failed = failed === undefined ? undefined : singleLine(failedReadText(operation, failed));
    if (failed !== undefined) return;
    operation.known = true;
    if (note !== undefined) operation.note = singleLine(note);
  }

  operationEnded(id: string, conclusion: string): void {
    if (this.stopped) return;
    const operation = this.running.get(id);
    this.running.delete(id);
    const name = operation ? `${operation.label}  ` : '';
    this.permanent(`${this.style.dim('•')} ${name}${shortId(id)}  ${singleLine(conclusion)}`);
  }

  message(text: string): void {
    for (const line of text.split('\n')) {
      const safe = singleLine(line);
      if (safe !== '') this.permanent(safe);
    }
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    this.running.clear();
    this.suites.running.clear();
    const erase = this.erase();
    if (erase !== '') this.stream.write(erase);
  }
}

/** Live lines redrawn in place on a terminal; plain timestamped lines anywhere else. */
export function createProgress(stream: ProgressStream, options: ProgressOptions): Progress {
  const clock: RunClock = { now: options.now ?? Date.now, startedAt: options.startedAt, ...(options.timeLimitMs !== undefined && { timeLimitMs: options.timeLimitMs }) };
  return stream.isTTY === true ? new LiveProgress(stream, options.color, clock) : new LogProgress(stream, clock);
}
