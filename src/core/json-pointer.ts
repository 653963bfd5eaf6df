/** RFC 6901 JSON pointers (`/changes`, `/spec/changes`, `` for the whole document). */

export function isValidPointer(pointer: string): boolean {
  return pointer === '' || (pointer.startsWith('/') && !/~[^01]|~$/.test(pointer));
}

/** The reference tokens of a valid pointer, unescaped: `/a~1b/c` is `a/b` then `c`; `` has none. */
export function pointerTokens(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The value a pointer names, or how far it got (`at`, as written) before it named nothing. */
export function resolvePointer(document: unknown, pointer: string): { found: true; value: unknown } | { found: false; at: string } {
  if (pointer !== '' && !pointer.startsWith('/')) return { found: false, at: pointer };
  const raws = pointer === '' ? [] : pointer.slice(1).split('/');
  const tokens = pointerTokens(pointer);
  let current: unknown = document;
  let walked = '';
  for (const [index, token] of tokens.entries()) {
    walked += `/${raws[index]}`;
    if (Array.isArray(current) && /^(0|[1-9]\d*)$/.test(token) && Number(token) < current.length) {
      current = current[Number(token)];
    } else if (typeof current === 'object' && current !== null && !Array.isArray(current) && Object.hasOwn(current, token)) {
      current = (current as Record<string, unknown>)[token];
    } else {
      return { found: false, at: walked };
    }
  }
  return { found: true, value: current };
}
