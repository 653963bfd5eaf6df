import { formatMs } from '../core/duration.js';
import { plural } from '../core/text.js';
import { fitColumns, styledWidth, wrapColumns } from './columns.js';
import { expectedEnd, expectedEndText, PhaseBoard, phasesToCome, wallClock, type RunPlan } from './expected-end.js';
import { casesText, isoDuration, liveFrame, shortId, SPINNER, type LiveOperation, type LiveSuite, type LiveView, type ScreenSize, type WaitingLine } from './live-frame.js';
import { singleLine } from './safe-text.js';
import { createStyle, type Style } from './style.js';
import type { SuiteProgress } from '../core/suite-progress.js';
import { waitingForText } from './waiting-for.js';

export { isoDuration, shortId } from './live-frame.js';

/** Live progress while suites and their operations run. */
export interface Progress extends SuiteProgress {
  /** An operation was accepted with 202; `deadlineMs` is how long the control plane waits for it (maxOperationDuration). */
  operationAccepted(id: string, changeSet: string | undefined, kind: 'plan' | 'apply', deadlineMs: number, suite?: string): void;
  /**
   * A read of the operation answered; `note` is its progress note, when it had one. `failed` says what the
   * read got when it told nothing of the work ("read answered 502"); without it the read said in_progress.
   */
  operationRead(id: string, note: string | undefined, failed?: string): void;
  /** Polling of the operation ended with what the control plane would conclude, e.g. `final: succeeded`. */
  /** `quiet`: work the kit sent only as load, stopped when its case ended: no line is written for it. */
  operationEnded(id: string, conclusion: string, quiet?: boolean): void;
  message(text: string): void;
  /** Stops redrawing and removes the live lines. */
  stop(): void;
}

export type ProgressStream = NodeJS.WritableStream & { isTTY?: boolean; columns?: number; rows?: number };

export interface ProgressOptions {
  color: boolean;
  /** The run's start, epoch ms. */
  startedAt: number;
  /** The clock, epoch ms; tests pass their own. */
  now?: () => number;
  /** The run's --time-limit, when it has one: what is left of it is shown. */
  timeLimitMs?: number;
  /** What the run will do, so that the lines can say when it ends; without it, only the deadlines in flight say. */
  plan?: Omit<RunPlan, 'timeLimitEndsAt'>;
  /** The poll interval: a log's summary line comes no more often than it. */
  pollIntervalMs?: number;
}

type RunningSuite = LiveSuite;

/** What the progress lines need of the run's clock and budget. */
interface RunClock {
  now: () => number;
  startedAt: number;
  timeLimitMs?: number;
  plan: RunPlan;
}

/** `12.4s left of PT2M`, `time limit spent`, or nothing without a time limit. */
export function budgetLeft(clock: Omit<RunClock, 'plan'>): string | undefined {
  if (clock.timeLimitMs === undefined) return undefined;
  const left = clock.startedAt + clock.timeLimitMs - clock.now();
  return left > 0 ? `${formatMs(left)} left of ${isoDuration(clock.timeLimitMs)}` : `time limit ${isoDuration(clock.timeLimitMs)} spent`;
}

/** Who listens for suites, the same on a terminal and in a log: the suites still running, by name. */
class SuiteBoard {
  readonly running = new Map<string, RunningSuite>();
  readonly phases = new PhaseBoard();

  started(name: string, total: number | undefined, at: number): void {
    this.running.set(name, { name, startedAt: at, done: 0, ...(total !== undefined && { total }) });
    this.phases.started(name, at);
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
    if (suite) this.phases.ended(name);
    return suite;
  }
}

/** A property's cases are suites of their own (`property/x#3.1`): their operations count with the property's. */
function groupOf(suite: string | undefined): string | undefined {
  return suite === undefined ? undefined : singleLine(suite.replace(/#.*$/, ''));
}

/** What the run waits for and when it ends at the latest, the same in a log and on a terminal. */
function waitingLine(clock: RunClock, suites: SuiteBoard, operations: readonly RunningOperation[]): WaitingLine {
  const now = clock.now();
  const toCome = phasesToCome(clock.plan, suites.phases);
  const what = waitingForText(operations, [...suites.running.keys()], toCome);
  const end = expectedEnd(clock.plan, suites.phases, operations.map((operation) => operation.acceptedAt + operation.deadlineMs), now);
  return { what, ...(end !== undefined && { end: expectedEndText(end, clock.plan, now) }) };
}

interface RunningOperation extends LiveOperation {
  /** A read has said in_progress: a failed read after it does not make the work unknown. */
  known?: boolean;
}

// Redraws at most this often: enough to look alive, little enough to stay cheap over SSH.
const REDRAW_MS = 100;
// Log lines have no known width; a note longer than this says nothing more.
const LOG_NOTE_WIDTH = 160;
const DEFAULT_COLUMNS = 80;
const DEFAULT_ROWS = 24;
// The indent of a log line's later rows when it is wrapped to the screen.
const CONTINUED = '    ';

/** A line that ends in a replay command (a property's summary), as what it says and the command. */
function splitReplay(line: string): [string, string | undefined] {
  const at = line.lastIndexOf(REPLAY_WITH);
  return at === -1 ? [line, undefined] : [line.slice(0, at), line.slice(at + REPLAY_WITH.length)];
}
const REPLAY_WITH = '; replay with ';
// A log that has been quiet this long while suites run gets a line saying what is still going on; checked
// often enough that no gap in a CI log is longer than 30 s.
const HEARTBEAT_QUIET_MS = 25_000;
const HEARTBEAT_CHECK_MS = 5_000;
// However busy the log, a summary of what the run waits for comes this often (or each poll interval, if longer):
// a few lines a minute over a long run, none in a run of seconds.
const SUMMARY_EVERY_MS = 30_000;

function clockTime(at: number): string {
  return `${wallClock(at)}.${String(new Date(at).getMilliseconds()).padStart(3, '0')}`;
}

function labelOf(kind: 'plan' | 'apply', changeSet: string | undefined): string {
  return changeSet === undefined ? kind : `${kind} ${singleLine(changeSet)}`;
}

/** "read answered 502; last known: in_progress": a failed read's line says what it answered, then what was known before. */
function failedReadText(operation: RunningOperation | undefined, failed: string): string {
  return `${failed}; ${operation?.known === true ? 'last known: in_progress' : 'nothing known yet'}`;
}

/** `scenario/burst 12/50 cases 6.2s`: what a suite has done so far, for a log line. */
function suiteState(suite: RunningSuite, now: number): string {
  return `${singleLine(suite.name)} ${casesText(suite)} ${formatMs(now - suite.startedAt)}`;
}

/**
 * Plain timestamped lines, for logs and CI: one when an operation starts, when its note changes, and when it
 * ends; one when a suite ends; and while suites run, a line whenever the log has been quiet for a while, so a
 * long wait never looks like a hang.
 */
class LogProgress implements Progress {
  private readonly running = new Map<string, RunningOperation>();
  private readonly suites = new SuiteBoard();
  private readonly now: () => number;
  private lastLineAt: number;
  private lastSummaryAt: number;
  private readonly summaryEveryMs: number;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly stream: ProgressStream,
    private readonly clock: RunClock,
    pollIntervalMs = 0,
  ) {
    this.now = clock.now;
    this.lastLineAt = this.now();
    this.lastSummaryAt = this.lastLineAt;
    this.summaryEveryMs = Math.max(SUMMARY_EVERY_MS, pollIntervalMs);
    this.timer = setInterval(() => this.heartbeat(), HEARTBEAT_CHECK_MS);
    // Progress must never keep the process alive on its own.
    this.timer.unref();
  }

  suiteStarted(name: string, total?: number): void {
    this.suites.started(name, total, this.now());
  }

  casesDone(name: string, done: number, total?: number, shrinking?: number): void {
    this.suites.done(name, done, total, shrinking);
  }

  // A log is not redrawn: one line when a suite ends says what it did and what is left of the budget. The
  // summary is never cut: it may end with a replay command meant to be copied.
  suiteEnded(name: string, summary: string): void {
    const suite = this.suites.ended(name);
    const took = suite ? ` after ${formatMs(this.now() - suite.startedAt)}` : '';
    const left = budgetLeft(this.clock);
    this.line(`${singleLine(name)} ended${took}: ${singleLine(summary)}${left === undefined ? '' : ` (${left})`}`);
  }

  private line(text: string): void {
    this.lastLineAt = this.now();
    this.stream.write(`[${clockTime(this.lastLineAt)}] ${text}\n`);
  }

  /**
   * When the log has been quiet a while, and however busy it is every summary interval, two lines:
   * `still running: property/model-based-runs 3/30 cases 42.0s; 2 operations in progress, the oldest for 8.0s`
   * `waiting for 2 operations (2 of property/model-based-runs); ends by 10:42:07 at the latest, in 11m08s (properties 2×PT5M)`
   */
  private heartbeat(): void {
    const now = this.now();
    if (this.suites.running.size === 0) return;
    if (now - this.lastLineAt < HEARTBEAT_QUIET_MS && now - this.lastSummaryAt < this.summaryEveryMs) return;
    const suites = [...this.suites.running.values()].map((suite) => suiteState(suite, now)).join('; ');
    const oldest = Math.min(...[...this.running.values()].map((operation) => operation.acceptedAt));
    const operations = this.running.size === 0 ? 'no operation in progress' : `${plural(this.running.size, 'operation')} in progress, the oldest for ${formatMs(now - oldest)}`;
    const left = budgetLeft(this.clock);
    this.line(`still running: ${suites}; ${operations}${left === undefined ? '' : ` (${left})`}`);
    const waiting = waitingLine(this.clock, this.suites, [...this.running.values()]);
    this.line(`waiting for ${waiting.what}${waiting.end === undefined ? '' : `; ${waiting.end}`}`);
    this.lastSummaryAt = now;
  }

  operationAccepted(id: string, changeSet: string | undefined, kind: 'plan' | 'apply', deadlineMs: number, suite?: string): void {
    const label = labelOf(kind, changeSet);
    const group = groupOf(suite);
    const acceptedAt = this.now();
    this.running.set(id, { id, label, deadlineMs, acceptedAt, ...(group !== undefined && { suite: group }) });
    this.line(`accepted ${label} as ${singleLine(id)} (waits up to ${isoDuration(deadlineMs)}, until ${wallClock(acceptedAt + deadlineMs)})`);
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

  operationEnded(id: string, conclusion: string, quiet = false): void {
    this.running.delete(id);
    if (quiet) return;
    this.line(`${shortId(id)} ${singleLine(conclusion)}`);
  }

  message(text: string): void {
    for (const line of text.split('\n')) {
      const safe = singleLine(line);
      if (safe !== '') this.line(safe);
    }
  }

  stop(): void {
    clearInterval(this.timer);
    this.running.clear();
    this.suites.running.clear();
  }
}

/**
 * A block of live lines on a terminal, redrawn in place: laid out by `liveFrame` to fit the screen as it is
 * at each redraw, so a resize is followed and the block never scrolls.
 */
class LiveProgress implements Progress {
  private readonly running = new Map<string, RunningOperation>();
  /** Operations accepted so far per suite, ended ones included; forgotten with their suite. */
  private readonly accepted = new Map<string, number>();
  private readonly suites = new SuiteBoard();
  private readonly style: Style;
  /** The width in columns of each line of the block on screen. */
  private drawn: number[] = [];
  private frame = 0;
  private stopped = false;
  private readonly timer: NodeJS.Timeout;
  private readonly onResize = (): void => this.redraw();

  constructor(
    private readonly stream: ProgressStream,
    color: boolean,
    private readonly clock: RunClock,
  ) {
    this.style = createStyle(color);
    this.timer = setInterval(() => this.redraw(), REDRAW_MS);
    // Progress must never keep the process alive on its own.
    this.timer.unref();
    if (typeof stream.on === 'function') stream.on('resize', this.onResize);
  }

  private get size(): ScreenSize {
    return { columns: Math.max(1, this.stream.columns ?? DEFAULT_COLUMNS), rows: Math.max(1, this.stream.rows ?? DEFAULT_ROWS) };
  }

  /**
   * Moves the cursor to where the block starts, blanking each row it took on the way back down. Never a clear
   * to the end of the screen: a terminal that keeps what a whole-screen clear removes (tmux's scroll-on-clear)
   * would put the frame in the scrollback whenever the block began at the top row. A line drawn before the
   * terminal got narrower now wraps onto more rows: they are counted at today's width.
   */
  private erase(): string {
    if (this.drawn.length === 0) return '';
    const { columns } = this.size;
    const rows = this.drawn.reduce((sum, width) => sum + Math.max(1, Math.ceil(width / columns)), 0);
    this.drawn = [];
    const back = rows > 1 ? `\u001b[${rows - 1}A` : '';
    return `\r\u001b[${rows}A${'\u001b[2K\u001b[1B'.repeat(rows - 1)}\u001b[2K${back}`;
  }

  /**
   * A line that stays: printed above the block, which is drawn again below it at once. Wrapped between words to
   * the screen's width, its later rows indented, so that the terminal never wraps it mid-word.
   */
  private permanent(line: string, bullet = false): void {
    const mark = bullet ? `${this.style.dim('•')} ` : '';
    // A command to copy gets a row of its own, whole: rows joined by the wrap would paste as several commands.
    const [said, command] = splitReplay(line);
    const rows = wrapColumns(said, this.size.columns - 1 - (bullet ? 2 : 0), CONTINUED);
    if (command !== undefined) rows.push(`${CONTINUED}replay: ${command}`);
    this.draw(`${mark}${rows.join(`\n${bullet ? '  ' : ''}`)}\n`);
  }

  private redraw(): void {
    if (this.stopped || (this.running.size === 0 && this.suites.running.size === 0 && this.drawn.length === 0)) return;
    this.frame = (this.frame + 1) % SPINNER.length;
    this.draw('');
  }

  /**
   * Erases the block, writes `above` (lines that stay) and the block again, in one write: a line that stays never
   * leaves the screen without its block until the next tick.
   */
  private draw(above: string): void {
    const left = budgetLeft(this.clock);
    const operations = [...this.running.values()];
    const view: LiveView = {
      now: this.clock.now(),
      startedAt: this.clock.startedAt,
      ...(left !== undefined && { budget: left }),
      spinner: SPINNER[this.frame]!,
      suites: [...this.suites.running.values()],
      operations,
      accepted: this.accepted,
      waiting: waitingLine(this.clock, this.suites, operations),
    };
    const lines = this.stopped ? [] : liveFrame(view, this.size, this.style);
    const text = this.erase() + above + lines.map((line) => `${line}\n`).join('');
    this.drawn = lines.map(styledWidth);
    this.stream.write(text);
  }

  suiteStarted(name: string, total?: number): void {
    if (this.stopped) return;
    this.suites.started(singleLine(name), total, this.clock.now());
  }

  casesDone(name: string, done: number, total?: number, shrinking?: number): void {
    this.suites.done(singleLine(name), done, total, shrinking);
  }

  suiteEnded(name: string, summary: string): void {
    if (this.stopped) return;
    const safe = singleLine(name);
    const suite = this.suites.ended(safe);
    if (![...this.running.values()].some((operation) => operation.suite === safe)) this.accepted.delete(safe);
    const took = suite ? `  ${formatMs(this.clock.now() - suite.startedAt)}` : '';
    // Wrapped, never cut: the summary may end with a replay command meant to be copied.
    this.permanent(`${safe}${took}  ${singleLine(summary)}`, true);
  }

  operationAccepted(id: string, changeSet: string | undefined, kind: 'plan' | 'apply', deadlineMs: number, suite?: string): void {
    if (this.stopped) return;
    const group = groupOf(suite);
    this.running.set(id, { id, label: labelOf(kind, changeSet), deadlineMs, acceptedAt: this.clock.now(), ...(group !== undefined && { suite: group }) });
    if (group !== undefined) this.accepted.set(group, (this.accepted.get(group) ?? 0) + 1);
  }

  operationRead(id: string, note: string | undefined, failed?: string): void {
    const operation = this.running.get(id);
    if (!operation) return;
    if (failed === undefined) delete operation.failed;
    else operation.failed = singleLine(failedReadText(operation, failed));
    if (failed !== undefined) return;
    operation.known = true;
    if (note !== undefined) operation.note = singleLine(note);
  }

  operationEnded(id: string, conclusion: string, quiet = false): void {
    if (this.stopped) return;
    const operation = this.running.get(id);
    this.running.delete(id);
    if (quiet) return;
    const name = operation ? `${operation.label}  ` : '';
    this.permanent(`${name}${shortId(id)}  ${singleLine(conclusion)}`, true);
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
    if (typeof this.stream.off === 'function') this.stream.off('resize', this.onResize);
    this.running.clear();
    this.suites.running.clear();
    const erase = this.erase();
    if (erase !== '') this.stream.write(erase);
  }
}

/** A run whose plan nobody told: no chain is known, so only the deadlines in flight bound its end. */
const DEADLINES_ONLY: RunPlan = { operationMs: 0, properties: false, propertyChain: 0 };

/** Live lines redrawn in place on a terminal; plain timestamped lines anywhere else. */
export function createProgress(stream: ProgressStream, options: ProgressOptions): Progress {
  const plan: RunPlan = {
    ...(options.plan ?? DEADLINES_ONLY),
    ...(options.timeLimitMs !== undefined && { timeLimitEndsAt: options.startedAt + options.timeLimitMs }),
  };
  const clock: RunClock = { now: options.now ?? Date.now, startedAt: options.startedAt, plan, ...(options.timeLimitMs !== undefined && { timeLimitMs: options.timeLimitMs }) };
  return stream.isTTY === true ? new LiveProgress(stream, options.color, clock) : new LogProgress(stream, clock, options.pollIntervalMs);
}
