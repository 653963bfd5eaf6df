/** Resolves an RFC 6901 JSON pointer (`/changes`, `/spec/changes`, `` for the whole document). */
export function resolvePointer(document: unknown, pointer: string): { found: true; value: unknown } | { found: false; at: string } {
  if (pointer === '') return { found: true, value: document };
  if (!pointer.startsWith('/')) return { found: false, at: pointer };
  let current: unknown = document;
  let walked = '';
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    walked += `/${raw}`;
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

export function isValidPointer(pointer: string): boolean {
  return pointer === '' || (pointer.startsWith('/') && !/~[^01]|~$/.test(pointer));
}
