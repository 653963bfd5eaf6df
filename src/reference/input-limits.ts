/** How deep the 'nested-json-500' fault lets a body nest before it fails the way a recursive parser would. */
export const DEEPEST_NESTING = 50;

/** Punctuation a namespace-building provisioner chokes on: any Unicode punctuation but the hyphen. */
export function hasPunctuation(text: string): boolean {
  return /[^\P{P}-]/u.test(text);
}

// A lenient decoder gives up looking for the end of the first value in long bodies.
const LENIENT_SCAN_LIMIT = 64 * 1024;

/**
 * Reads the first JSON value of a body and ignores whatever follows it, as a streaming decoder that is
 * never asked whether the input ended does. Only the 'trailing-garbage-accepted' fault reads bodies so.
 */
export function parseFirstValue(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    const message = (error as Error).message;
    if (text.length > LENIENT_SCAN_LIMIT) return { ok: false, error: message };
    for (let end = 1; end < text.length; end++) {
      const last = text[end - 1];
      if (last !== '}' && last !== ']') continue;
      try {
        return { ok: true, value: JSON.parse(text.slice(0, end)) as unknown };
      } catch {
        // not the end of the first value yet
      }
    }
    return { ok: false, error: message };
  }
}
