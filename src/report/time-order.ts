/**
 * Exchanges in the order they were sent, ties and unknown times in seq order. A rule lists its evidence in
 * its own order (a repeat before what it repeats), and seq counts exchanges as they are recorded, after they
 * end, so a slow call sent first can hold the higher seq; a reader follows evidence in the order it happened.
 */
export function inTimeOrder<T>(items: readonly T[], sentAt: (item: T) => number | undefined, seq: (item: T) => number): T[] {
  const keyed = items.map((item) => {
    const at = sentAt(item);
    // An exchange of unknown time (not in the transcript, a report with a bad date) goes after the timed ones.
    return { item, at: at === undefined || Number.isNaN(at) ? Number.POSITIVE_INFINITY : at, seq: seq(item) };
  });
  keyed.sort((a, b) => (a.at === b.at ? a.seq - b.seq : a.at < b.at ? -1 : 1));
  return keyed.map(({ item }) => item);
}
