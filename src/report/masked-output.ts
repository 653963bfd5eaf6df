import { Writable } from 'node:stream';
import type { Progress, ProgressStream } from './progress.js';
import type { SecretMask } from './secret-mask.js';

/**
 * A stream that writes everything through the mask to `target`, at once and in order. It answers `isTTY`
 * and `columns` as the target does, so progress still draws live lines on a terminal.
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
  return stream as ProgressStream;
}

/**
 * Progress whose texts are masked before it lays them out: a note is cut to fit a line after its secrets
 * are hidden, never in the middle of one, and a note that is a secret is hidden however short it is.
 * Anything else the progress offers passes through untouched (its stream is masked as well).
 */
export function maskedProgress(progress: Progress, mask: SecretMask): Progress {
  const masked: Partial<Record<PropertyKey, unknown>> = {
    operationAccepted: (id: string, changeSet: string | undefined, kind: 'plan' | 'apply', deadlineMs: number) =>
      progress.operationAccepted(mask.text(id), changeSet === undefined ? undefined : mask.text(changeSet), kind, deadlineMs),
    operationRead: (id: string, note: string | undefined) => progress.operationRead(mask.text(id), note === undefined ? undefined : mask.field(note)),
    operationEnded: (id: string, conclusion: string) => progress.operationEnded(mask.text(id), mask.text(conclusion)),
    message: (text: string) => progress.message(mask.text(text)),
  };
  return new Proxy(progress, {
    get(target, key) {
      if (Object.hasOwn(masked, key)) return masked[key];
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
