/**
 * A counterexample as a person reads it: the commands that ran, one a line, with the real operation ids and
 * answers of the run that failed. `fallback` is fast-check's own one-line form, for a case with no lines kept.
 */
export function describeCase(lines: readonly string[] | undefined, fallback: string): string {
  if (!lines || lines.length === 0) return fallback;
  return lines.map((line, i) => `${i + 1}. ${line}`).join('\n');
}
