import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { SubmitKind } from '../transcript/exchange.js';

const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Canonical 8-4-4-4-12 hexadecimal text; the reference asks no more of an id it is given. */
export function isUuid(text: string): boolean {
  return UUID_TEXT.test(text);
}

/** Makes the id of a new operation from the call that started it. */
export type OperationIdSource = (kind: SubmitKind, bodyText: string) => string;

/** The correct source: a random version 4 UUID for every operation. */
export const randomOperationIds: OperationIdSource = () => randomUUID();

/** A UUID shaped like version 4 but taken from a hash, so the same text always gives the same id. */
export function hashedUuid(text: string): string {
  const bytes = createHash('sha256').update(text).digest().subarray(0, 16);
  return formatUuid(bytes, 4);
}

/** A version 7 UUID: 48 bits of Unix milliseconds, then random bits. */
export function timeOrderedUuid(unixMs: number): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(Math.floor(unixMs) % 2 ** 48, 0, 6);
  return formatUuid(bytes, 7);
}

function formatUuid(source: Buffer, version: number): string {
  const bytes = Buffer.from(source);
  bytes[6] = (bytes[6]! & 0x0f) | (version << 4);
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // the RFC 9562 variant
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
