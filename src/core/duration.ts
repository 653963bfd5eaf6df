import { parse as parseIso } from 'tinyduration';
import { MOST_OPERATION_DURATION } from './defaults.js';

/** A duration as the user wrote it (ISO 8601) and in milliseconds: decided once, shown as written, used as a number. */
export interface Duration {
  text: string;
  ms: number;
}

/** A duration known only in milliseconds (e.g. read back from a transcript), with its ISO 8601 text. */
export function durationOfMs(ms: number): Duration {
  return { text: `PT${Number((ms / 1000).toFixed(3))}S`, ms };
}

export type DurationParse = { ok: true; ms: number; text: string } | { ok: false; error: string };

// Calendar units have no fixed length; any amount of them is far above PT30M, which is all that matters here.
const UNIT_MS = {
  years: 365 * 24 * 3600_000,
  months: 30 * 24 * 3600_000,
  weeks: 7 * 24 * 3600_000,
  days: 24 * 3600_000,
  hours: 3600_000,
  minutes: 60_000,
  seconds: 1000,
} as const;

/** Milliseconds of a duration the kit writes itself (a default of the defaults table): one that does not parse is a bug. */
export function msOfDuration(text: string): number {
  const parsed = parseDuration(text);
  if (!parsed.ok) throw new Error(`the kit's own duration ${text} does not parse: ${parsed.error}`);
  return parsed.ms;
}

/** Parses an ISO 8601 duration (`PT0.5S`, `PT5M`, `P1D`) into milliseconds. */
export function parseDuration(text: unknown): DurationParse {
  if (typeof text !== 'string') return { ok: false, error: `expected an ISO 8601 duration string, got ${typeof text}` };
  let parts: ReturnType<typeof parseIso>;
  try {
    parts = parseIso(text.trim());
  } catch {
    // ISO 8601 writes the designators in upper case; `pt5m` is the most common slip.
    const upper = text.trim().toUpperCase();
    if (upper !== text.trim() && parseDuration(upper).ok) return { ok: false, error: `"${text}" is not an ISO 8601 duration: its letters are upper case (${upper})` };
    return { ok: false, error: `"${text}" is not an ISO 8601 duration (write e.g. PT0.5S, PT10S or PT5M)` };
  }
  let ms = 0;
  for (const [unit, size] of Object.entries(UNIT_MS) as Array<[keyof typeof UNIT_MS, number]>) {
    ms += (parts[unit] ?? 0) * size;
  }
  if (parts.negative) ms = -ms;
  return { ok: true, ms, text: text.trim() };
}

/** A duration that must be above zero, for flags such as --poll-interval. */
export function parsePositiveDuration(text: unknown): DurationParse {
  const parsed = parseDuration(text);
  if (!parsed.ok) return parsed;
  if (parsed.ms <= 0) return { ok: false, error: `"${parsed.text}" must be more than zero` };
  return parsed;
}

/** The most maxOperationDuration a registration may hold, in milliseconds. */
export const MOST_OPERATION_DURATION_MS = msOfDuration(MOST_OPERATION_DURATION);

/** A maxOperationDuration: above zero and at most PT30M. */
export function parseMaxOperationDuration(text: unknown): DurationParse {
  const parsed = parsePositiveDuration(text);
  if (!parsed.ok) return parsed;
  if (parsed.ms > MOST_OPERATION_DURATION_MS) return { ok: false, error: `"${parsed.text}" is longer than ${MOST_OPERATION_DURATION}, the most the control plane accepts` };
  return parsed;
}

/** Human form of a duration for console lines: 850ms, 4.2s, 3m05s. */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 59_950) return `${(ms / 1000).toFixed(1)}s`;
  const totalSeconds = Math.round(ms / 1000);
  return `${Math.floor(totalSeconds / 60)}m${String(totalSeconds % 60).padStart(2, '0')}s`;
}
