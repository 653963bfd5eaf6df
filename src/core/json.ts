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
