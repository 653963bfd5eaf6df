/**
 * How many sub-cases go in one batch. A property that allows it (a `limit`) takes as many as it was asked for,
 * up to that limit, so that its cases go in as few batches as the provisioner can take: each batch waits about
 * one operation-length. The size then depends on the cases asked for, which a replay line does not carry, so a
 * path records it (`SIZE/PATH`) whenever it differs from the property's own fixed size.
 */
export const MAX_BATCH = 50;

/** The batch size of a run asked for `asked` cases: the property's own, raised towards `asked` up to `limit`. */
export function batchSizeFor(own: number, asked: number, limit: number | undefined): number {
  const fixed = Math.max(1, Math.floor(own));
  if (limit === undefined || fixed === 1) return fixed;
  return Math.max(fixed, Math.min(Math.floor(asked), Math.floor(limit)));
}

/** The path a replay line shows: fast-check's, with the batch size in front when it is not the property's own. */
export function pathWithBatch(path: string, size: number, own: number): string {
  return size === own ? path : `${size}/${path}`;
}

/** A replay path read back: the batch size it names (if any) and fast-check's path. */
export function splitBatchPath(path: string): { size?: number; path: string } {
  const match = /^(\d+)\/(.*)$/.exec(path);
  if (!match) return { path };
  const size = Number(match[1]);
  return Number.isSafeInteger(size) && size >= 1 ? { size, path: match[2]! } : { path };
}
