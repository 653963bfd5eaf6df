import type { RunOutcome } from '../runner/outcome.js';
import { harExchange, readHarEntries } from '../transcript/har.js';
import { unreadableFile } from '../errors.js';
import type { HarJudgingConfig } from '../config/verify-config.js';
import { observationOutcome } from './observation-outcome.js';
import { observedContext } from './observe.js';
import { ExchangeRecorder, type SeenExchange } from './recorder.js';
import { StreamingJudge } from './streaming-judge.js';

/** What judging a HAR file needs of an observation's configuration. */
export type HarJudging = HarJudgingConfig & {
  onChangeSet?: ConstructorParameters<typeof StreamingJudge>[0]['onChangeSet'];
};

/**
 * Judges the traffic a HAR 1.2 file recorded (browsers, mitmproxy, API proxies write them) as `observe` judges
 * live traffic: the file is read as a stream, entry by entry, in its order, each operation judged when it
 * ends (its deadline on the recording's own clock), with the same rule ids and report. Entries that cannot be
 * read as an exchange are counted and said.
 */
export async function verifyHar(path: string, judging: HarJudging): Promise<RunOutcome> {
  const recorder = new ExchangeRecorder(judging.bodyLimitBytes);
  let judge: StreamingJudge | undefined;
  let startedAt: number | undefined;
  let url: string | undefined;
  let answered = 0;
  let entries = 0;
  const problems = new Map<string, number>();
  const judgeFor = (at: number): StreamingJudge =>
    (judge ??= new StreamingJudge({
      context: observedContext(judging, at),
      selection: judging.selection,
      changesPointer: judging.changesPointer,
      ...(judging.onChangeSet && { onChangeSet: judging.onChangeSet }),
    }));
  try {
    for await (const entry of readHarEntries(path)) {
      entries += 1;
      const seen = harExchange(entry);
      if ('problem' in seen) {
        problems.set(seen.problem, (problems.get(seen.problem) ?? 0) + 1);
        continue;
      }
      startedAt ??= seen.sentAt;
      url ??= new URL(seen.url).origin;
      const current = judgeFor(startedAt);
      // The recording's own clock: an operation whose deadline passed before this entry began has ended there.
      current.sweep(seen.sentAt);
      if (seen.response) answered += 1;
      // Judged on at most the body limit, as live traffic is.
      const recorded = await recorder.record(seen.response ? { ...seen, response: withinLimit(seen.response, judging.bodyLimitBytes) } : seen);
      if (recorded) current.add(recorded);
      else current.other();
    }
  } catch (error) {
    throw unreadableFile('--har', path, error);
  }
  const start = startedAt ?? Date.now();
  const finalJudge = judgeFor(start);
  finalJudge.finish(finalJudge.latest || start);
  return observationOutcome(finalJudge.snapshot(), {
    source: 'har',
    url: url ?? '(no entry recorded)',
    startedAt: start,
    finishedAt: Math.max(start, finalJudge.latest),
    context: observedContext(judging, start),
    strict: judging.selection.strict ?? false,
    showSecrets: judging.showSecrets,
    changesPointer: judging.changesPointer,
    notes: [
      `judged the ${entries} entries recorded in ${path}`,
      ...[...problems].map(([problem, count]) => `${count} ${count === 1 ? 'entry was' : 'entries were'} left out: ${problem}`),
    ],
    answered,
  });
}

/** An answer's body cut to the first `limit` bytes, as the proxy keeps one; marked truncated when it was longer. */
function withinLimit(response: NonNullable<SeenExchange['response']>, limit: number): NonNullable<SeenExchange['response']> {
  let bytes = 0;
  for (const chunk of response.chunks) bytes += chunk.length;
  if (bytes <= limit) return response;
  const kept: Buffer[] = [];
  let room = limit;
  for (const chunk of response.chunks) {
    if (room <= 0) break;
    kept.push(chunk.length <= room ? chunk : chunk.subarray(0, room));
    room -= Math.min(chunk.length, room);
  }
  return { ...response, chunks: kept, truncated: true };
}
