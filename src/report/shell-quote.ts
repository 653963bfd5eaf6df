/** One shell word that bash and sh read back as exactly `text`: single quotes, with each ' written as '\''. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** `text` unquoted when it has nothing the shell would interpret, else quoted. */
export function shellWord(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : shellQuote(text);
}
