/** A text parsed as JSON, or why it could not be. */
export type JsonParse = { ok: true; value: unknown } | { ok: false; error: string };

// V8 quotes the text it could not parse, whole or the part around the error:
// `Unexpected token 'x', "{"a": x}" is not valid JSON`, `Unexpected token 'o', ..."token": tok-12"... is not valid JSON`.
const QUOTED_TEXT = /^([\s\S]*?),? (?:\.\.\.)?"[\s\S]*"(?:\.\.\.)? is not valid JSON$/;

/**
 * Why a text is not JSON, without the text itself: V8's message quotes the start of the document, which may
 * hold a secret (a header in a config file, a token in a transcript written with --show-secrets).
 */
export function jsonSyntaxMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const quoted = QUOTED_TEXT.exec(message);
  if (!quoted) return message;
  return quoted[1] === '' ? 'not valid JSON' : quoted[1]!;
}

/** Where the first error of a text that is not JSON is, as an offset; undefined when it is JSON after all. */
export function jsonErrorOffset(text: string): number | undefined {
  let at = 0;
  const space = (): void => {
    while (at < text.length && ' \t\n\r'.includes(text[at]!)) at++;
  };
  const fail = (): never => {
    throw at;
  };
  const literal = (word: string): void => {
    for (const char of word) {
      if (text[at] !== char) fail();
      at++;
    }
  };
  const string = (): void => {
    at++;
    while (at < text.length && text[at] !== '"') {
      const char = text[at]!;
      if (char < ' ') fail();
      if (char === '\\') {
        at++;
        const escape = text[at];
        if (escape === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(at + 1, at + 5))) fail();
          at += 4;
        } else if (escape === undefined || !'"\\/bfnrt'.includes(escape)) fail();
      }
      at++;
    }
    if (at >= text.length) fail();
    at++;
  };
  const number = (): void => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at));
    if (!match) fail();
    at += match![0].length;
  };
  const value = (): void => {
    space();
    const char = text[at];
    if (char === '{') {
      at++;
      space();
      if (text[at] === '}') return void at++;
      for (;;) {
        space();
        if (text[at] !== '"') fail();
        string();
        space();
        if (text[at] !== ':') fail();
        at++;
        value();
        space();
        if (text[at] === ',') at++;
        else if (text[at] === '}') return void at++;
        else fail();
      }
    }
    if (char === '[') {
      at++;
      space();
      if (text[at] === ']') return void at++;
      for (;;) {
        value();
        space();
        if (text[at] === ',') at++;
        else if (text[at] === ']') return void at++;
        else fail();
      }
    }
    if (char === '"') return string();
    if (char === 't') return literal('true');
    if (char === 'f') return literal('false');
    if (char === 'n') return literal('null');
    if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) return number();
    fail();
  };
  try {
    value();
    space();
    return at < text.length ? at : undefined;
  } catch (offset) {
    return offset as number;
  }
}

/** Line and column (from 1) of an offset in a text. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

/**
 * Why a text is not JSON and where, without the text itself: `Unexpected token 'x' at line 3, column 9`.
 * The place is found by reading the text again, as V8's message does not always give one.
 */
export function jsonSyntaxError(text: string, error: unknown): string {
  const message = jsonSyntaxMessage(error).replace(/ in JSON at position \d+.*$| at position \d+.*$/, '');
  const offset = jsonErrorOffset(text);
  if (offset === undefined) return message;
  const { line, column } = lineAndColumn(text, offset);
  return `${message} at line ${line}, column ${column}`;
}
