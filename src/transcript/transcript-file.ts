import { readFile } from 'node:fs/promises';
import { StreamedList, writeJsonFile } from './json-chunks.js';
import type { JudgeContext } from '../core/judge-context.js';
import type { Exchange, RecordedResponse, TranscriptEvent } from './exchange.js';
import { Transcript } from './transcript.js';
import { parseBodyJson } from './json-body.js';

/**
 * An exchange as stored: a parsed body is the body again, so it is left out and parsed again on reading,
 * except where only the head and tail of a long body were kept: then its parsed value is stored too.
 */
type StoredExchange = Omit<Exchange, 'response'> & { response?: Omit<RecordedResponse, 'json'> & { json?: RecordedResponse['json'] } };

/** A transcript saved to disk with the context it was judged in, so rules can judge it again offline. */
export interface TranscriptFile {
  format: 'provisioner-conformance/transcript@1';
  context: JudgeContext;
  exchanges: StoredExchange[];
  events: TranscriptEvent[];
}

function stored(exchange: Exchange): StoredExchange {
  if (!exchange.response || exchange.response.elided) return exchange;
  const { json: _parsed, ...response } = exchange.response;
  return { ...exchange, response };
}

function restored(exchange: StoredExchange): Exchange {
  const { response, ...rest } = exchange;
  if (!response) return rest;
  return { ...rest, response: { ...response, json: response.json ?? parseBodyJson(response.body, response.truncated) } };
}

/** The text of a transcript file: what `writeTranscriptFile` writes and `readTranscriptFile` reads. */
export function transcriptFileText(exchanges: readonly Exchange[], events: readonly TranscriptEvent[], context: JudgeContext): string {
  const file: TranscriptFile = { format: 'provisioner-conformance/transcript@1', context, exchanges: exchanges.map(stored), events: [...events] };
  return `${JSON.stringify(file)}\n`;
}

/**
 * Writes the same text as {@link transcriptFileText}, one exchange at a time: a long run's transcript is never one
 * string. The exchanges may be made as they are written (iterated once).
 */
export async function writeTranscriptFile(
  path: string,
  exchanges: Iterable<Exchange>,
  events: readonly TranscriptEvent[],
  context: JudgeContext,
  piece?: (chunk: string) => string,
): Promise<void> {
  const file = { format: 'provisioner-conformance/transcript@1', context, exchanges: new StreamedList(() => storedEach(exchanges)), events };
  await writeJsonFile(path, file, '', piece);
}

function* storedEach(exchanges: Iterable<Exchange>): Generator<StoredExchange> {
  for (const exchange of exchanges) yield stored(exchange);
}

export async function readTranscriptFile(path: string): Promise<{ transcript: Transcript; context: JudgeContext }> {
  return parseTranscriptFile(await readFile(path, 'utf8'), path);
}

/** A transcript file's text back as a transcript and the context it was judged in; `name` is for the error. */
export function parseTranscriptFile(text: string, name: string): { transcript: Transcript; context: JudgeContext } {
  const file = JSON.parse(text) as TranscriptFile | null;
  if (typeof file !== 'object' || file === null || file.format !== 'provisioner-conformance/transcript@1' || !Array.isArray(file.exchanges)) {
    throw new Error(`${name} is not a transcript file of this kit`);
  }
  return { transcript: new Transcript(file.exchanges.map(restored), file.events), context: file.context };
}
