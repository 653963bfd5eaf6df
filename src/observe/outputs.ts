import { rename, rm } from 'node:fs/promises';
import type { RunOutcome } from '../runner/outcome.js';
import { writeHtmlReport } from '../report/write-html.js';
import { writeJsonReport } from '../report/write-json.js';
import { writeJunitReport } from '../report/write-junit.js';
import { writeBundle } from '../report/bundle.js';
import type { SecretMask } from '../report/secret-mask.js';
import type { ObserveOutputs } from './config.js';

/** Writes a file through `write` at a temporary name, then renames it: a reader (or a kill) never sees half a report. */
async function atomically(path: string, write: (temporary: string) => Promise<void>): Promise<void> {
  const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
  try {
    await write(temporary);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
}

/** Writes the JSON report alone: what is rewritten every interval. */
export async function writeObservedJson(outputs: ObserveOutputs, outcome: RunOutcome, mask: SecretMask): Promise<void> {
  if (outputs.report !== undefined) await atomically(outputs.report, (file) => writeJsonReport(file, outcome, mask));
}

/** What the final outputs pass through: the mask of what is shown, and the observation's secrets a bundle always hides. */
export interface ObservedMasks {
  shown: SecretMask;
  secrets: SecretMask;
}

/**
 * Writes every report asked for, each atomically (a bundle file by file, its manifest last); the first failure
 * is thrown once all were tried. `settings` are what a bundle records, secrets already removed. The transcript
 * is not among them: an observation appends it as the traffic flows (see TranscriptStream).
 */
export async function writeObservedOutputs(outputs: ObserveOutputs, outcome: RunOutcome, masks: ObservedMasks, settings: Record<string, unknown>): Promise<void> {
  const mask = masks.shown;
  const writes: Array<Promise<unknown>> = [writeObservedJson(outputs, outcome, mask)];
  if (outputs.junit !== undefined) writes.push(atomically(outputs.junit, (file) => writeJunitReport(file, outcome, mask)));
  if (outputs.html !== undefined) writes.push(atomically(outputs.html, (file) => writeHtmlReport(file, outcome, mask)));
  if (outputs.bundle !== undefined) writes.push(writeBundle(outputs.bundle, { outcome, settings, mask: masks.secrets }));
  const settled = await Promise.allSettled(writes);
  const failed = settled.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) throw failed.reason;
}
