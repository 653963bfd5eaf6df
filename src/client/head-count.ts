const CR = 0x0d;
const LF = 0x0a;
const SP = 0x20;
const HT = 0x09;
const COLON = 0x3a;

const enum At {
  StatusLine,
  LineStart,
  EmptyLine,
  Name,
  ValueStart,
  Value,
  RestOfLine,
  Ended,
}

/**
 * Counts the bytes of an answer's head that undici holds against its header limit, read as the bytes come:
 * the header names and values, without the status line, the colons, the whitespace around a value, the line
 * ends and any line it cannot read as a header. The count never exceeds undici's own, so a head this counts
 * up to the limit is one undici would refuse too (it refuses a count that reaches its limit), found before
 * undici has parsed it.
 */
export class HeadCount {
  /** Bytes of header names and values so far. */
  counted = 0;
  private at = At.StatusLine;
  /** Whitespace inside a value not yet counted: it counts only once more of the value follows it. */
  private spaces = 0;
  /** Bytes of the name being read: they count once its colon shows the line is a header. */
  private name = 0;

  constructor(private readonly limit: number) {}

  /** The head's empty line was read: what follows is the body. */
  get ended(): boolean {
    return this.at === At.Ended;
  }

  /** The count reached the limit: the head is longer than undici reads. */
  get overflowed(): boolean {
    return this.counted >= this.limit;
  }

  /** Reads `bytes` from `from` on, up to the head's end or the limit. */
  read(bytes: Uint8Array, from = 0): void {
    for (let i = from; i < bytes.length && this.counted < this.limit; i++) {
      const byte = bytes[i]!;
      switch (this.at) {
        case At.StatusLine:
        case At.RestOfLine:
          if (byte === LF) this.at = At.LineStart;
          break;
        case At.LineStart:
          if (byte === LF) {
            this.at = At.Ended;
            return;
          }
          if (byte === CR) this.at = At.EmptyLine;
          // A line that starts with whitespace continues the last value (an obsolete folding): not counted.
          else if (byte === SP || byte === HT) this.at = At.RestOfLine;
          else if (byte === COLON) this.at = At.RestOfLine;
          else {
            this.name = 1;
            this.at = At.Name;
          }
          break;
        case At.EmptyLine:
          if (byte === LF) {
            this.at = At.Ended;
            return;
          }
          this.at = At.RestOfLine;
          break;
        case At.Name:
          if (byte === COLON) {
            this.counted += this.name;
            this.at = At.ValueStart;
          } else if (byte === LF) this.at = At.LineStart;
          else if (byte === CR) this.at = At.RestOfLine;
          else this.name++;
          break;
        case At.ValueStart:
          if (byte === LF) this.at = At.LineStart;
          else if (byte === CR) this.at = At.RestOfLine;
          else if (byte !== SP && byte !== HT) {
            this.counted++;
            this.at = At.Value;
          }
          break;
        case At.Value:
          if (byte === LF) this.at = At.LineStart;
          else if (byte === CR) this.at = At.RestOfLine;
          else if (byte === SP || byte === HT) this.spaces++;
          else {
            this.counted += this.spaces + 1;
            this.spaces = 0;
          }
          if (this.at !== At.Value) this.spaces = 0;
          break;
        case At.Ended:
          return;
      }
    }
  }
}
