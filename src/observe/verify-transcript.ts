import type { RuleSelection } from '../rules/index.js';
import type { RunOutcome } from '../runner/outcome.js';
import { judgeReadTranscript, readingTranscript } from '../runner/verify.js';
import { readTranscriptPieces, TRANSCRIPT_FORMAT, TranscriptGatherer, type StreamedTranscriptHeader, type TranscriptPiece } from '../transcript/transcript-file.js';
import { observationOutcome } from './observation-outcome.js';
import { StreamingJudge } from './streaming-judge.js';

/**
 * `verify FILE`: judges a transcript file again, offline, read as a stream. A transcript an observer wrote as
 * the traffic flowed is judged as the observer judged it, operation by operation, with the same streaming
 * judge in the same order (so it may be larger than memory); a transcript written whole (`run --transcript`)
 * is judged whole, as the run judged it.
 */
export async function verifyTranscriptFile(path: string, selection: RuleSelection, options: { showSecrets?: boolean } = {}): Promise<RunOutcome> {
  return readingTranscript(path, async () => {
    const pieces = readTranscriptPieces(path);
    const first = await pieces.next();
    if (!first.done && first.value.kind === 'head' && first.value.head.format !== TRANSCRIPT_FORMAT) {
      return judgeStreamed(first.value.head, pieces, path, selection, options);
    }
    const gatherer = new TranscriptGatherer(path);
    if (!first.done) gatherer.add(first.value);
    for await (const piece of pieces) gatherer.add(piece);
    return judgeReadTranscript(gatherer.result(), path, selection, options);
  });
}

/** The records of a streamed transcript fed to a streaming judge as the observer fed them: exchanges, other requests, deadline checks, the end. */
async function judgeStreamed(
  head: StreamedTranscriptHeader,
  pieces: AsyncIterable<TranscriptPiece>,
  path: string,
  selection: RuleSelection,
  options: { showSecrets?: boolean },
): Promise<RunOutcome> {
  const judge = new StreamingJudge({ context: head.context, selection, changesPointer: head.changesPointer });
  let answered = 0;
  let dropped = 0;
  let unjudged = 0;
  let endedAt: number | undefined;
  for await (const piece of pieces) {
    switch (piece.kind) {
      case 'exchange': {
        // An answer that began came from the provisioner, even when it was cut off: as the observer counts them.
        if (piece.exchange.respondedAt !== undefined) answered += 1;
        // With its seq: the evidence names it as the file does.
        judge.add(piece.exchange);
        break;
      }
      case 'other':
        if (piece.answered) answered += 1;
        judge.other();
        break;
      case 'sweep':
        judge.sweep(piece.at);
        break;
      case 'dropped':
        dropped += piece.count;
        break;
      case 'unjudged':
        unjudged += piece.count;
        break;
      case 'end':
        endedAt = piece.at;
        break;
      default:
        break;
    }
  }
  const finishedAt = endedAt ?? Math.max(head.context.startedAt, judge.latest);
  judge.finish(finishedAt);
  return observationOutcome(judge.snapshot(), {
    source: 'proxy',
    url: head.url,
    startedAt: head.context.startedAt,
    finishedAt,
    context: head.context,
    strict: selection.strict ?? false,
    showSecrets: options.showSecrets ?? false,
    changesPointer: head.changesPointer,
    notes: [
      `judged again offline from ${path}, the transcript an observer wrote of the traffic to ${head.url} as it flowed`,
      ...(dropped > 0 ? [`${dropped} ${dropped === 1 ? 'line was' : 'lines were'} not written while observing (the disk was slower than the traffic): what ${dropped === 1 ? 'it' : 'they'} held is not judged here`] : []),
      ...(unjudged > 0 ? [`${unjudged} ${unjudged === 1 ? 'exchange was' : 'exchanges were'} passed on but never judged nor written while observing (the observer's judges had fallen behind the traffic, or recording failed): the observer's report said so too`] : []),
      ...(endedAt === undefined ? ['the transcript has no end: the observer was stopped before it could write one; operations still open were judged on what was written'] : []),
    ],
    answered,
    // Lines the observer could not write, or exchanges it never judged, are not judged here: no rule may hold on traffic it did not see.
    ...(dropped + unjudged > 0 && {
      kitFailure: dropped > 0 ? 'the observer dropped lines of this transcript while writing it' : 'the observer did not judge all of the traffic, and this transcript lacks what it did not judge',
      unjudged: dropped + unjudged,
    }),
  });
}
