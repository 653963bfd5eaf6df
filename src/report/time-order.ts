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

/**
 * Pieces of evidence in the order they happened: by the earliest exchange of each, pieces of no known time
 * last, in the rule's order. Every place that shows a rule's evidence shows it in this one order.
 */
export function piecesInTimeOrder<P, X>(pieces: readonly P[], exchangesOf: (piece: P) => readonly X[], sentAt: (exchange: X) => number | undefined, seq: (exchange: X) => number): P[] {
  const earliest = pieces.map((piece, index) => {
    const [first] = inTimeOrder(exchangesOf(piece), sentAt, seq);
    const at = first === undefined ? undefined : sentAt(first);
    return { piece, index, at: at === undefined || Number.isNaN(at) ? Number.POSITIVE_INFINITY : at, seq: first === undefined ? Number.POSITIVE_INFINITY : seq(first) };
  });
  earliest.sort((a, b) => (a.at !== b.at ? (a.at < b.at ? -1 : 1) : a.seq !== b.seq ? a.seq - b.seq : a.index - b.index));
  return earliest.map(({ piece }) => piece);
}
