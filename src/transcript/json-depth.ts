/** Deepest nesting of an answer the kit keeps as parsed JSON: report writers and rules walk values recursively. */
export const MAX_JSON_DEPTH = 1000;

/** Whether a parsed JSON value nests deeper than `limit` arrays and objects. Iterative, so depth costs no stack. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth + 1 > limit) return true;
    for (const child of Object.values(current)) stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}
