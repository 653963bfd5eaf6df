/** A text parsed as JSON, or why it could not be. */
export type JsonParse = { ok: true; value: unknown } | { ok: false; error: string };
