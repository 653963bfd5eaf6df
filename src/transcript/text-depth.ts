/**
 * Whether a JSON text nests deeper than `limit` arrays and objects, read from the text itself: brackets
 * inside strings do not count. For valid JSON this is the depth of the value it parses to, known before
 * parsing, so a body nested 200,000 deep is refused without building its tree. No allocation, no stack.
 */
export function textNestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++; // a backslash escapes the next character, a quote included
      else if (code === 0x22) inString = false;
      continue;
    }
    if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      depth++;
      if (depth > limit) return true;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return false;
}
