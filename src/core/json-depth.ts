/**
 * Nesting depth of a parsed JSON value: 0 for a scalar, 1 for `[]` or `{}`. Iterative, so depth costs no
 * stack; with `stopAbove` it stops as soon as the depth is known to be more than that.
 */
export function jsonDepth(value: unknown, stopAbove = Number.POSITIVE_INFINITY): number {
  let deepest = 0;
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > stopAbove) return deepest;
    for (const child of Object.values(current)) stack.push({ value: child, depth: depth + 1 });
  }
  return deepest;
}

/** Whether a parsed JSON value nests deeper than `limit` arrays and objects. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  return jsonDepth(value, limit) > limit;
}
