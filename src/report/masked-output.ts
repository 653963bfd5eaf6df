import { Writable } from 'node:stream';
import type { Progress, ProgressStream } from './progress.js';
import type { SecretMask } from './secret-mask.js';

/**
 * A stream that writes everything through the mask to `target`, at once and in order. It answers `isTTY`,
 * `columns` and `rows` as the target does, and passes on its resizes, so progress still draws live lines that fit a terminal.
 */
export function maskedStream(target: ProgressStream, mask: SecretMask): ProgressStream {
  const stream = new Writable({
    decodeStrings: false,
    write(chunk: unknown, _encoding, done) {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
      // Passed on synchronously, not after the target's callback: a line must never wait behind a slow pipe.
      target.write(mask.text(text));
      done();
    },
  });
  Object.defineProperty(stream, 'isTTY', { get: () => target.isTTY, enumerable: true });
  Object.defineProperty(stream, 'columns', { get: () => target.columns, enumerable: true });
  Object.defineProperty(stream, 'rows', { get: () => target.rows, enumerable: true });
  // A resize of the target is told to whoever listens here, listening on the target only meanwhile.
  const resized = (): boolean => stream.emit('resize');
  stream.on('newListener', (event: string | symbol) => {
    if (event === 'resize' && stream.listenerCount('resize') === 0 && typeof target.on === 'function') target.on('resize', resized);
  });
  stream.on('removeListener', (event: string | symbol) => {
    if (event === 'resize' && stream.listenerCount('resize') === 0 && typeof target.off === 'function') target.off('resize', resized);
  });
  return stream as ProgressStream;
}

/**
 * Progress whose texts are masked before it lays them out: a note is cut to fit a line after its secrets
 * are hidden, never in the middle of one, and a note that is a secret is hidden however short it is.
 */
export function maskedProgress(progress: Progress, mask: SecretMask): Progress {
  const optional = (text: string | undefined): string | undefined => (text === undefined ? undefined : mask.text(text));
  return {
    operationAccepted: (id, changeSet, kind, deadlineMs, suite) => progress.operationAccepted(mask.text(id), optional(changeSet), kind, deadlineMs, optional(suite)),
    operationRead: (id, note, failed) => progress.operationRead(mask.text(id), note === undefined ? undefined : mask.field(note), optional(failed)),
    operationEnded: (id, conclusion, quiet) => progress.operationEnded(mask.text(id), mask.text(conclusion), quiet),
    message: (text) => progress.message(mask.text(text)),
    suiteStarted: (name, total) => progress.suiteStarted(mask.text(name), total),
    casesDone: (name, done, total, shrinking) => progress.casesDone(mask.text(name), done, total, shrinking),
    suiteEnded: (name, summary) => progress.suiteEnded(mask.text(name), mask.text(summary)),
    stop: () => progress.stop(),
  };
}
