import { displayWidth, fitColumns } from '../report/columns.js';
import { wallClock } from '../report/expected-end.js';
import { SPINNER } from '../report/live-frame.js';
import type { ProgressStream } from '../report/progress.js';
import { singleLine } from '../report/safe-text.js';
import type { SecretMask } from '../report/secret-mask.js';
import { createStyle, type Style } from '../report/style.js';
import type { ObservationProgress, ObserveEvent } from './observation-news.js';
import { eventText, liveText, summaryText } from './observe-lines.js';
import { SummaryPacer } from './summary-pacer.js';

/** What the observe command prints while it runs, on a terminal or in a log. */
export interface ObserveConsole {
  /** A sentence of the observation (the URL it listens on, a failure of the recording side), printed as it is. */
  message(text: string): void;
  /** An event of the observation: one line each. */
  event(event: ObserveEvent): void;
  /** Stops printing; on a terminal the live line is removed. */
  stop(): void;
}

export interface ObserveConsoleOptions {
  color: boolean;
  mask: SecretMask;
  /** The observation's counts at any moment; set once the observation started. */
  progress: () => ObservationProgress | undefined;
  /** The clock, epoch ms; tests pass their own. */
  now?: () => number;
  /** How often the log's pacer is asked, or the live line redrawn; tests pass 0 and call `tick`. */
  tickMs?: number;
}

// A log's summary is due within this of its time: often enough, cheap enough.
const LOG_TICK_MS = 5_000;
// The live line's clock and counts move once a second: enough to look alive, little enough over SSH.
const LIVE_TICK_MS = 1_000;
const DEFAULT_COLUMNS = 80;

/** A live line redrawn in place on a terminal; timestamped lines and a quiet-interval summary in a log. */
export function createObserveConsole(stream: ProgressStream, options: ObserveConsoleOptions): ObserveConsole & { tick(): void } {
  return stream.isTTY === true ? new LiveObserveConsole(stream, options) : new LogObserveConsole(stream, options);
}

function styledEvent(event: ObserveEvent, style: Style): (text: string) => string {
  if (event.kind === 'upstream-up') return style.green;
  if (event.kind === 'upstream-down') return style.red;
  return event.level === 'MUST' ? style.red : style.yellow;
}

/**
 * Plain lines for a log: each event at once, with the time of day; a summary every 30 s when something changed,
 * and an idle line per 10 minutes without one (see `SummaryPacer`): an idle proxy does not fill the log.
 */
class LogObserveConsole implements ObserveConsole {
  private readonly now: () => number;
  private pacer: SummaryPacer | undefined;
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly stream: ProgressStream,
    private readonly options: ObserveConsoleOptions,
  ) {
    this.now = options.now ?? Date.now;
    const every = options.tickMs ?? LOG_TICK_MS;
    this.timer = every > 0 ? setInterval(() => this.tick(), every) : undefined;
    // Printing must never keep the process alive on its own.
    this.timer?.unref();
  }

  message(text: string): void {
    for (const line of text.split('\n')) {
      const safe = singleLine(this.options.mask.text(line));
      if (safe !== '') this.stream.write(`${safe}\n`);
    }
  }

  event(event: ObserveEvent): void {
    this.line(eventText(event));
  }

  tick(): void {
    const progress = this.options.progress();
    if (!progress) return;
    const now = this.now();
    this.pacer ??= new SummaryPacer(progress.startedAt);
    const due = this.pacer.due(now, progress);
    if (due) this.line(summaryText(progress, now, due.kind === 'idle' ? due.quietForMs : undefined));
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  private line(text: string): void {
    this.stream.write(`[${wallClock(this.now())}] observe: ${singleLine(this.options.mask.text(text))}\n`);
  }
}

/**
 * One live line on a terminal, redrawn in place every second with the counts; events and messages print above
 * it and stay. Every line is masked first, then cut to the terminal's width.
 */
class LiveObserveConsole implements ObserveConsole {
  private readonly now: () => number;
  private readonly style: Style;
  private readonly timer: NodeJS.Timeout | undefined;
  /** The width in columns of the live line on screen, when one is drawn. */
  private drawn: number | undefined;
  private frame = 0;
  private stopped = false;
  private readonly onResize = (): void => this.tick();

  constructor(
    private readonly stream: ProgressStream,
    private readonly options: ObserveConsoleOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.style = createStyle(options.color);
    const every = options.tickMs ?? LIVE_TICK_MS;
    this.timer = every > 0 ? setInterval(() => this.tick(), every) : undefined;
    this.timer?.unref();
    if (typeof stream.on === 'function') stream.on('resize', this.onResize);
  }

  private get width(): number {
    return Math.max(1, this.stream.columns ?? DEFAULT_COLUMNS) - 1;
  }

  message(text: string): void {
    for (const line of text.split('\n')) {
      const safe = singleLine(this.options.mask.text(line));
      if (safe !== '') this.permanent(fitColumns(safe, this.width));
    }
  }

  event(event: ObserveEvent): void {
    const text = fitColumns(`${wallClock(this.now())} ${singleLine(this.options.mask.text(eventText(event, true)))}`, this.width);
    this.permanent(styledEvent(event, this.style)(text));
  }

  tick(): void {
    if (this.stopped) return;
    const progress = this.options.progress();
    if (!progress) return;
    this.frame = (this.frame + 1) % SPINNER.length;
    const line = fitColumns(singleLine(this.options.mask.text(liveText(progress, this.now()))), this.width - 2);
    const text = `${this.erase()}${this.style.cyan(SPINNER[this.frame]!)} ${progress.upstream.answering ? this.style.dim(line) : this.style.red(line)}`;
    this.drawn = displayWidth(line) + 2;
    this.stream.write(text);
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (typeof this.stream.off === 'function') this.stream.off('resize', this.onResize);
    const erase = this.erase();
    if (erase !== '') this.stream.write(erase);
  }

  /**
   * Clears the live line, drawn without a newline so that the cursor rests on it; a line drawn before the
   * terminal got narrower now wraps onto more rows: they are counted at today's width.
   */
  private erase(): string {
    if (this.drawn === undefined) return '';
    const rows = Math.max(1, Math.ceil(this.drawn / Math.max(1, this.stream.columns ?? DEFAULT_COLUMNS)));
    this.drawn = undefined;
    return `\r${rows > 1 ? `\u001b[${rows - 1}A` : ''}\u001b[J`;
  }

  /** A line that stays: printed where the live line was, which comes back below it at once. */
  private permanent(line: string): void {
    const had = this.drawn !== undefined;
    this.stream.write(`${this.erase()}${line}\n`);
    if (had && !this.stopped) this.tick();
  }
}
