/** Counting words for sentences the kit prints: `1 answer`, `3 answers`, `2 bodies`. */
export function plural(count: number, singular: string, many = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : many}`;
}
