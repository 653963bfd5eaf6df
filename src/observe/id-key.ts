const UUID = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})$/i;

/** Whether an operationId is a UUID in its 8-4-4-4-12 form, in either case. */
export function isUuidText(id: string): boolean {
  return UUID.test(id);
}

/** An operationId as a short key: a UUID (any case) as its 16 bytes, anything else as written. */
export function idKey(id: string): string {
  const uuid = UUID.exec(id);
  return uuid ? Buffer.from(uuid.slice(1).join(''), 'hex').toString('latin1') : `#${id}`;
}
