import { createReadStream } from 'node:fs';
import { StreamedList, writeJsonFile } from './json-chunks.js';
import type { JudgeContext } from '../core/judge-context.js';
import type { Exchange, Millis, TranscriptEvent } from './exchange.js';
import { Transcript } from './transcript.js';
import { withoutParsedBody, withParsedBody, type StoredResponse } from './stored-response.js';
import { TranscriptScanner, type ScannedValue } from './transcript-scanner.js';

/** The format of a transcript written whole, as one JSON document (`run --transcript`, a bundle's transcript.json). */
export const TRANSCRIPT_FORMAT = 'provisioner-conformance/transcript@1';
/**
 * The format of a transcript appended to as the traffic flows (`observe --transcript`): a header line, then one
 * line per record. A writer stopped at any point leaves every line it finished readable.
 */
export const STREAMED_TRANSCRIPT_FORMAT = 'provisioner-conformance/transcript-stream@1';

/**
 * An exchange as stored: a parsed body is the body again, so it is left out and parsed again on reading,
 * except where only the head and tail of a long body were kept: then its parsed value is stored too.
 */
export type StoredExchange = Omit<Exchange, 'response'> & { response?: StoredResponse };

/** A transcript saved to disk with the context it was judged in, so rules can judge it again offline. */
export interface TranscriptFile {
  format: typeof TRANSCRIPT_FORMAT;
  context: JudgeContext;
  exchanges: StoredExchange[];
  events: TranscriptEvent[];
}

/** The text of a transcript file: what `writeTranscriptFile` writes and `readTranscriptFile` reads. */
export function transcriptFileText(exchanges: readonly Exchange[], events: readonly TranscriptEvent[], context: JudgeContext): string {
  const file: TranscriptFile = { format: TRANSCRIPT_FORMAT, context, exchanges: exchanges.map((exchange) => withoutParsedBody(exchange)), events: [...events] };
  return `${JSON.stringify(file)}\n`;
}

/**
 * Writes the same text as {@link transcriptFileText}, one exchange at a time: a long run's transcript is never one
 * string. The exchanges may be made as they are written (iterated once).
 */
export async function writeTranscriptFile(
  path: string,
  exchanges: Iterable<Exchange>,
  events: readonly TranscriptEvent[],
  context: JudgeContext,
  piece?: (chunk: string) => string,
): Promise<void> {
  const file = { format: TRANSCRIPT_FORMAT, context, exchanges: new StreamedList(() => storedEach(exchanges)), events };
  await writeJsonFile(path, file, '', piece);
}

function* storedEach(exchanges: Iterable<Exchange>): Generator<StoredExchange> {
  for (const exchange of exchanges) yield withoutParsedBody(exchange);
}


/** The first line of a streamed transcript: where the traffic went and the context it was judged in. */
export interface StreamedTranscriptHeader {
  format: typeof STREAMED_TRANSCRIPT_FORMAT;
  /** The traffic was observed through the observer's proxy. */
  source: 'proxy';
  /** The provisioner the traffic went to. */
  url: string;
  changesPointer: string;
  /** The judging context; each POST brings its own change set. */
  context: Omit<JudgeContext, 'changeSets'>;
}

/** One line of a streamed transcript after its header. */
export type StreamedRecord =
  /** An exchange of the contract, numbered in the order it was judged. */
  | { exchange: StoredExchange }
  /** A request none of the contract's: passed through, counted, not judged; answered by the provisioner or not. */
  | { other: { answered: boolean } }
  /** Operations were checked against their deadline at this time, between the lines around it. */
  | { sweep: Millis }
  /** Lines that could not be written (the disk was slower than the traffic), in their place. */
  | { dropped: number }
  /** Exchanges passed on but never judged nor written (the judges had fallen behind, or recording failed), in their place. */
  | { unjudged: number }
  /** The observation ended here; a transcript without it was cut short (the observer was killed). */
  | { end: Millis };

/** A streamed record as its line, newline included. */
export function streamedLine(record: StreamedTranscriptHeader | StreamedRecord): string {
  return `${JSON.stringify(record)}\n`;
}

/** What a transcript file says of itself: its format and the context it was judged in. */
export type TranscriptHead = { format: typeof TRANSCRIPT_FORMAT; context: JudgeContext } | StreamedTranscriptHeader;

/** What a transcript file holds, piece by piece, in its order. */
export type TranscriptPiece =
  | { kind: 'head'; head: TranscriptHead }
  | { kind: 'exchange'; exchange: Exchange }
  | { kind: 'event'; event: TranscriptEvent }
  | { kind: 'other'; answered: boolean }
  | { kind: 'sweep'; at: Millis }
  | { kind: 'dropped'; count: number }
  | { kind: 'unjudged'; count: number }
  | { kind: 'end'; at: Millis };

/** A file that is JSON but no transcript of this kit, or one whose parts are not what the format says. */
export class NotATranscriptError extends Error {}

const DOCUMENT_KEYS = new Set(['format', 'context', 'exchanges', 'events']);
const HEADER_KEYS = new Set(['format', 'source', 'url', 'changesPointer', 'context']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Turns the values a {@link TranscriptScanner} completes into a transcript's pieces, for either format: a whole
 * document's exchanges and events as they come (its head when the document closes), or a streamed
 * transcript's header, then its records. The format must be the first thing the file says.
 */
class TranscriptPieces {
  private format: string | undefined;
  private readonly head: Record<string, unknown> = {};
  private headDone = false;
  private exchanges = 0;

  constructor(private readonly name: string) {}

  *of(values: readonly ScannedValue[]): Generator<TranscriptPiece> {
    for (const value of values) yield* this.piece(value);
  }

  private notTranscript(why?: string): NotATranscriptError {
    return new NotATranscriptError(why === undefined ? `${this.name} is not a transcript file of this kit` : `${this.name}: ${why}`);
  }

  private *piece(scanned: ScannedValue): Generator<TranscriptPiece> {
    if (scanned.at === 'member') {
      if (this.format === undefined) {
        if (scanned.key !== 'format' || (scanned.value !== TRANSCRIPT_FORMAT && scanned.value !== STREAMED_TRANSCRIPT_FORMAT)) throw this.notTranscript();
        this.format = scanned.value;
        // A key the format does not have (a later kit's, say) is passed over.
      } else if (!(this.format === TRANSCRIPT_FORMAT ? DOCUMENT_KEYS : HEADER_KEYS).has(scanned.key)) return;
      this.head[scanned.key] = scanned.value;
      return;
    }
    if (scanned.at === 'first-end') {
      if (this.format === undefined) throw this.notTranscript();
      if (!isObject(this.head.context)) throw this.notTranscript('it has no judging context');
      this.headDone = true;
      yield { kind: 'head', head: this.head as unknown as TranscriptHead };
      return;
    }
    const where = `at line ${scanned.line}, column ${scanned.column}`;
    if (scanned.at === 'item') {
      if (this.format !== TRANSCRIPT_FORMAT) throw this.notTranscript();
      if (scanned.key === 'exchanges') {
        this.exchanges += 1;
        yield { kind: 'exchange', exchange: this.exchange(scanned.value, where) };
      } else {
        if (!isObject(scanned.value) || typeof scanned.value.type !== 'string') throw this.notTranscript(`the event ${where} is no event`);
        yield { kind: 'event', event: scanned.value as unknown as TranscriptEvent };
      }
      return;
    }
    // A value after the first one: only a streamed transcript has them, one record a line.
    if (!this.headDone || this.format !== STREAMED_TRANSCRIPT_FORMAT) throw this.headDone ? this.notTranscript(`unexpected text after the transcript ${where}`) : this.notTranscript();
    yield this.record(scanned.value, where);
  }

  private exchange(value: unknown, where: string): Exchange {
    if (!isObject(value) || !isObject(value.request) || typeof value.sentAt !== 'number' || typeof value.endedAt !== 'number' || (value.response !== undefined && !isObject(value.response))) {
      throw this.notTranscript(`the exchange ${where} is no exchange`);
    }
    const exchange: Exchange = withParsedBody(value as unknown as StoredExchange);
    // Numbered in the file's order when the writer left it out.
    return typeof exchange.seq === 'number' ? exchange : { ...exchange, seq: this.exchanges };
  }

  private record(value: unknown, where: string): TranscriptPiece {
    if (isObject(value)) {
      if (isObject(value.exchange)) {
        this.exchanges += 1;
        return { kind: 'exchange', exchange: this.exchange(value.exchange, where) };
      }
      if (isObject(value.other) && typeof value.other.answered === 'boolean') return { kind: 'other', answered: value.other.answered };
      if (typeof value.sweep === 'number') return { kind: 'sweep', at: value.sweep };
      if (typeof value.dropped === 'number') return { kind: 'dropped', count: value.dropped };
      if (typeof value.unjudged === 'number') return { kind: 'unjudged', count: value.unjudged };
      if (typeof value.end === 'number') return { kind: 'end', at: value.end };
    }
    throw this.notTranscript(`what begins ${where} is no record of a streamed transcript`);
  }

  /** The text ended: an empty text is no transcript, and neither is one that never said its format. */
  finish(scanner: TranscriptScanner): void {
    if (!scanner.started) throw this.notTranscript('it is empty, not a transcript file of this kit');
    if (!this.headDone) throw this.notTranscript();
  }
}

/** Highest number of characters read at once: a piece of a file, never the whole of a large one. */
const READ_CHARACTERS = 256 * 1024;

/**
 * Reads a transcript file of either format as a stream, piece by piece: only the value being read is held.
 * Throws a TranscriptSyntaxError (line and column) where the text is not JSON, a NotATranscriptError where it
 * is no transcript of this kit, and the system's error where the file cannot be read.
 */
export async function* readTranscriptPieces(path: string): AsyncGenerator<TranscriptPiece> {
  const scanner = new TranscriptScanner();
  const pieces = new TranscriptPieces(path);
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: READ_CHARACTERS });
  try {
    for await (const chunk of stream) yield* pieces.of(scanner.push(chunk as string));
  } finally {
    stream.destroy();
  }
  yield* pieces.of(scanner.end());
  pieces.finish(scanner);
}

/** The same pieces from a text already in memory (a bundle's transcript, checked against its hash); `name` is for errors. */
export function* transcriptPiecesOf(text: string, name: string): Generator<TranscriptPiece> {
  const scanner = new TranscriptScanner();
  const pieces = new TranscriptPieces(name);
  for (let at = 0; at < text.length; at += READ_CHARACTERS) yield* pieces.of(scanner.push(text.slice(at, at + READ_CHARACTERS)));
  yield* pieces.of(scanner.end());
  pieces.finish(scanner);
}

/** A whole-document transcript's pieces gathered: its exchanges and events, in the context it was judged in. */
export class TranscriptGatherer {
  private readonly exchanges: Exchange[] = [];
  private readonly events: TranscriptEvent[] = [];
  private context: JudgeContext | undefined;

  constructor(private readonly name: string) {}

  add(piece: TranscriptPiece): void {
    if (piece.kind === 'exchange') this.exchanges.push(piece.exchange);
    else if (piece.kind === 'event') this.events.push(piece.event);
    else if (piece.kind === 'head') {
      if (piece.head.format !== TRANSCRIPT_FORMAT) {
        throw new NotATranscriptError(`${this.name} is an observation's transcript, written as the traffic flowed: verify FILE judges it as the observer did`);
      }
      this.context = piece.head.context;
    }
  }

  result(): { transcript: Transcript; context: JudgeContext } {
    return { transcript: new Transcript(this.exchanges, this.events), context: this.context! };
  }
}

/** A whole-document transcript file read back (as a stream) as a transcript and the context it was judged in. */
export async function readTranscriptFile(path: string): Promise<{ transcript: Transcript; context: JudgeContext }> {
  const gathered = new TranscriptGatherer(path);
  for await (const piece of readTranscriptPieces(path)) gathered.add(piece);
  return gathered.result();
}

/** A transcript file's text back as a transcript and the context it was judged in; `name` is for the error. */
export function parseTranscriptFile(text: string, name: string): { transcript: Transcript; context: JudgeContext } {
  const gathered = new TranscriptGatherer(name);
  for (const piece of transcriptPiecesOf(text, name)) gathered.add(piece);
  return gathered.result();
}
