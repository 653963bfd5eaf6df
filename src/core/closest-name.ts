/**
 * The known name closest to what a user typed, for a "did you mean" hint; undefined when none is close
 * enough to be the likely intent (a short name allows one edit, a longer one up to three).
 */
export function closestName(given: string, known: readonly string[]): string | undefined {
  const allowed = Math.min(3, Math.max(1, Math.floor(given.length / 4)));
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(given.toLowerCase(), name.toLowerCase());
    if (distance <= allowed && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`: a swap is one typo, not two. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) distance = Math.min(distance, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = distance;
    }
  }
  return rows[a.length]![b.length]!;
}

/** The hint that follows an unknown name: the closest known one, else where the known ones are listed. */
export function didYouMean(given: string, known: readonly string[], elsewhere: string): string {
  const closest = closestName(given, known);
  return closest === undefined ? elsewhere : `did you mean ${closest}?`;
}
