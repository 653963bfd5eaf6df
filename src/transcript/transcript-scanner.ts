import { jsonErrorOffset, jsonSyntaxMessage, lineAndColumn } from '../core/json.js';

/** The arrays of a transcript document read item by item: each item is parsed alone, the array never held. */
const STREAMED_MEMBERS = new Set(['exchanges', 'events']);
/** One value of the text (a member, an item, a line) longer than this is refused: it is no transcript's. */
export const MOST_VALUE_CHARACTERS = 128 * 1024 * 1024;

/** A value the scanner completed, and where in the text it stands. */
export type ScannedValue =
  /** A member of the first object, other than a streamed array. */
  | { at: 'member'; key: string; value: unknown }
  /** One item of a streamed array (`exchanges`, `events`) of the first object. */
  | { at: 'item'; key: string; value: unknown; line: number; column: number }
  /** The first object closed. */
  | { at: 'first-end' }
  /** A value after the first object: a record of a transcript written line by line. */
  | { at: 'record'; value: unknown; line: number; column: number };

/** A text that is not JSON where the scanner read it; the message says what and where, never quotes the text. */
export class TranscriptSyntaxError extends Error {}

const enum State {
  /** Between top-level values. */
  Top,
  /** In the first object, after `{`: a key or `}`. */
  FirstOpen,
  /** In the first object, after `,`: a key. */
  NextKey,
  InKey,
  Colon,
  MemberValue,
  AfterMember,
  /** In a streamed array, after `[`: an item or `]`. */
  ItemsOpen,
  NextItem,
  AfterItem,
}

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

function indexOrEnd(text: string, search: string, from: number): number {
  const at = text.indexOf(search, from);
  return at === -1 ? text.length : at;
}

/**
 * Reads the text of a transcript file as it comes, chunk by chunk, and hands on its values as they complete:
 * the members of its first object, the items of that object's `exchanges` and `events` arrays one at a time,
 * and every value after that object (the records of a transcript written line by line). Only the value being
 * read is held, so a file larger than memory can be read as long as each value fits. Whatever is not JSON is
 * a {@link TranscriptSyntaxError} naming its line and column.
 */
export class TranscriptScanner {
  private state = State.Top;
  private firstDone = false;
  private line = 1;
  private column = 1;
  private key = '';
  private keyParts: string[] = [];
  private keyEscaped = false;
  /** The value being collected: its parts so far, where it began, and how far its structure is open. */
  private parts: string[] | undefined;
  private partsLength = 0;
  private startLine = 1;
  private startColumn = 1;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private primitive = false;
  /** Where the collected value goes when it is complete. */
  private target: 'member' | 'item' | 'record' = 'member';

  /** Feeds the next piece of the text; returns the values completed in it, in order. */
  push(text: string): ScannedValue[] {
    const done: ScannedValue[] = [];
    let from = this.parts ? 0 : -1;
    // Where the next quote and backslash of the piece are: the inside of a string (most of a transcript's text)
    // is passed over up to them, not read character by character.
    let quoteAt = -1;
    let slashAt = -1;
    for (let i = 0; i < text.length; i++) {
      if (this.inString && !this.escaped && this.parts !== undefined) {
        if (quoteAt < i) quoteAt = indexOrEnd(text, '"', i);
        if (slashAt < i) slashAt = indexOrEnd(text, '\\', i);
        const stop = Math.min(quoteAt, slashAt);
        // A string holds no line break (JSON has none there; one that is there fails when the value is parsed).
        this.column += stop - i;
        i = stop;
        if (i >= text.length) break;
      }
      const code = text.charCodeAt(i);
      if (this.parts !== undefined) {
        const ended = this.collect(code);
        if (ended === 'after') {
          this.complete(text.slice(from, i + 1), done);
          from = -1;
        } else if (ended === 'before') {
          this.complete(text.slice(from, i), done);
          from = -1;
          // The character that ended a number or literal belongs to what follows it.
          this.structure(code, text, i, done);
          if (this.parts !== undefined) from = i;
        }
      } else {
        this.structure(code, text, i, done);
        if (this.parts !== undefined) from = i;
      }
      if (code === 0x0a) {
        this.line += 1;
        this.column = 1;
      } else this.column += 1;
    }
    if (this.parts !== undefined && from >= 0) this.keep(text.slice(from));
    return done;
  }

  /** The text ended: a value cut short is an error, and so is a first object never closed. */
  end(): ScannedValue[] {
    const done: ScannedValue[] = [];
    if (this.parts !== undefined && this.primitive) this.complete('', done);
    if (this.parts !== undefined) {
      throw new TranscriptSyntaxError(`the text ends inside the value that begins at line ${this.startLine}, column ${this.startColumn}: it is cut short (the writer may have stopped while writing it)`);
    }
    if (this.state === State.InKey) throw this.error('the text ends inside a key');
    if (this.state !== State.Top) throw this.error('the text ends before its first object is closed');
    return done;
  }

  /** Whether any value began: an empty (or blank) text has none. */
  get started(): boolean {
    return this.state !== State.Top || this.firstDone;
  }

  private error(what: string): TranscriptSyntaxError {
    return new TranscriptSyntaxError(`${what} at line ${this.line}, column ${this.column}`);
  }

  private unexpected(code: number): TranscriptSyntaxError {
    return this.error(`Unexpected ${code < 0x20 ? 'control character' : `character '${String.fromCharCode(code)}'`}`);
  }

  /** A character outside a collected value: the skeleton of the first object, or the space between top-level values. */
  private structure(code: number, text: string, i: number, done: ScannedValue[]): void {
    switch (this.state) {
      case State.Top:
        if (WHITESPACE.has(code)) return;
        if (code === 0x7b /* { */ && !this.firstDone) {
          this.state = State.FirstOpen;
          return;
        }
        // A value other than the first object (or in its place: then the file is no transcript).
        this.begin(code, 'record');
        return;
      case State.FirstOpen:
      case State.NextKey:
        if (WHITESPACE.has(code)) return;
        if (code === 0x22 /* " */) {
          this.state = State.InKey;
          this.keyParts = [];
          this.keyEscaped = false;
          return;
        }
        if (code === 0x7d /* } */ && this.state === State.FirstOpen) return this.closeFirst(done);
        throw this.unexpected(code);
      case State.InKey:
        if (this.keyEscaped) this.keyEscaped = false;
        else if (code === 0x5c /* \ */) this.keyEscaped = true;
        else if (code === 0x22) {
          this.key = this.parseKey(this.keyParts.join(''));
          this.state = State.Colon;
          return;
        } else if (code < 0x20) throw this.unexpected(code);
        if (this.keyParts.length > 1024) throw this.error('a key longer than 1024 characters');
        this.keyParts.push(text[i]!);
        return;
      case State.Colon:
        if (WHITESPACE.has(code)) return;
        if (code !== 0x3a /* : */) throw this.unexpected(code);
        this.state = State.MemberValue;
        return;
      case State.MemberValue:
        if (WHITESPACE.has(code)) return;
        if (code === 0x5b /* [ */ && STREAMED_MEMBERS.has(this.key)) {
          this.state = State.ItemsOpen;
          return;
        }
        this.begin(code, 'member');
        return;
      case State.AfterMember:
        return this.afterValue(code, State.NextKey, 0x7d /* } */, () => this.closeFirst(done));
      case State.ItemsOpen:
      case State.NextItem:
        if (WHITESPACE.has(code)) return;
        if (code === 0x5d /* ] */ && this.state === State.ItemsOpen) {
          this.state = State.AfterMember;
          return;
        }
        this.begin(code, 'item');
        return;
      case State.AfterItem:
        return this.afterValue(code, State.NextItem, 0x5d /* ] */, () => (this.state = State.AfterMember));
    }
  }

  /** After a member or an item: whitespace, a comma before the next one, or the character that closes them all. */
  private afterValue(code: number, next: State, close: number, closed: () => void): void {
    if (WHITESPACE.has(code)) return;
    if (code === 0x2c /* , */) this.state = next;
    else if (code === close) closed();
    else throw this.unexpected(code);
  }

  private parseKey(raw: string): string {
    try {
      return JSON.parse(`"${raw}"`) as string;
    } catch {
      throw this.error('a key that is no JSON string');
    }
  }

  private closeFirst(done: ScannedValue[]): void {
    this.state = State.Top;
    this.firstDone = true;
    done.push({ at: 'first-end' });
  }

  /** A value begins with this character: collected until it ends, then parsed whole. */
  private begin(code: number, target: 'member' | 'item' | 'record'): void {
    if (code === 0x7d || code === 0x5d || code === 0x2c || code === 0x3a) throw this.unexpected(code);
    this.target = target;
    this.parts = [];
    this.partsLength = 0;
    this.startLine = this.line;
    this.startColumn = this.column;
    this.inString = code === 0x22;
    this.escaped = false;
    this.primitive = code !== 0x7b && code !== 0x5b && code !== 0x22;
    this.depth = code === 0x7b || code === 0x5b ? 1 : 0;
  }

  /**
   * One more character of the collected value (its first was seen by `begin`, so a string's opening quote is
   * not seen here). Says whether the value ended with it ('after') or just before it ('before').
   */
  private collect(code: number): 'after' | 'before' | undefined {
    if (this.primitive) return WHITESPACE.has(code) || code === 0x2c || code === 0x7d || code === 0x5d || code === 0x7b || code === 0x5b || code === 0x22 ? 'before' : undefined;
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (code === 0x5c) this.escaped = true;
      else if (code === 0x22) {
        this.inString = false;
        if (this.depth === 0) return 'after';
      }
      return undefined;
    }
    if (code === 0x22) this.inString = true;
    else if (code === 0x7b || code === 0x5b) this.depth += 1;
    else if (code === 0x7d || code === 0x5d) {
      this.depth -= 1;
      if (this.depth === 0) return 'after';
    }
    return undefined;
  }

  private keep(part: string): void {
    this.partsLength += part.length;
    if (this.partsLength > MOST_VALUE_CHARACTERS) {
      throw new TranscriptSyntaxError(`the value that begins at line ${this.startLine}, column ${this.startColumn} is longer than ${MOST_VALUE_CHARACTERS / 1024 / 1024} Mi characters: no transcript holds one so long`);
    }
    this.parts!.push(part);
  }

  private complete(last: string, done: ScannedValue[]): void {
    this.keep(last);
    const text = this.parts!.length === 1 ? this.parts![0]! : this.parts!.join('');
    this.parts = undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw this.syntaxError(text, error);
    }
    const at = { line: this.startLine, column: this.startColumn };
    if (this.target === 'member') {
      done.push({ at: 'member', key: this.key, value });
      this.state = State.AfterMember;
    } else if (this.target === 'item') {
      done.push({ at: 'item', key: this.key, value, ...at });
      this.state = State.AfterItem;
    } else {
      done.push({ at: 'record', value, ...at });
      this.firstDone = true;
    }
  }

  /** Where in the file a collected value stops being JSON, from where it began and where in it the error lies. */
  private syntaxError(text: string, error: unknown): TranscriptSyntaxError {
    const message = jsonSyntaxMessage(error).replace(/ in JSON at position \d+.*$| at position \d+.*$/, '');
    const offset = jsonErrorOffset(text) ?? text.length;
    const inner = lineAndColumn(text, offset);
    const line = this.startLine + inner.line - 1;
    const column = inner.line === 1 ? this.startColumn + inner.column - 1 : inner.column;
    return new TranscriptSyntaxError(`${message} at line ${line}, column ${column}`);
  }
}
