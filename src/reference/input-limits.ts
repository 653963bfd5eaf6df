/** How deep the 'nested-json-500' fault lets a body nest before it fails the way a recursive parser would. */
export const DEEPEST_NESTING = 50;

/** Nesting depth of a parsed JSON value: 0 for a scalar, 1 for `[]` or `{}`. Iterative, so depth never costs stack. */
export function jsonDepth(value: unknown): number {
  let deepest = 0;
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    deepest = Math.max(deepest, depth + 1);
    for (const child of Object.values(current)) stack.push({ value: child, depth: depth + 1 });
  }
  return deepest;
}

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
