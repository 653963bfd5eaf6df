import { formatMs } from '../core/duration.js';
import type { Millis } from '../transcript/exchange.js';
import { restartWindows } from '../transcript/situations.js';
import type { Transcript } from '../transcript/transcript.js';

/**
 * An operation's conclusion told with the kit's restart of the provisioner, when one began while the operation
 * was in progress (after its 202, before its end): work the provisioner ends failed after it was cut by the
 * restart; any other end came across it. Without a word of the restart, a failure it caused reads as the
 * provisioner's own.
 */
export function withRestart(conclusion: string, failed: boolean, transcript: Transcript, acceptedAt: Millis, endedAt: Millis): string {
  const restart = restartWindows(transcript).find((window) => window.startedAt >= acceptedAt && window.startedAt <= endedAt);
  if (restart === undefined) return conclusion;
  const when = `the kit's restart ${formatMs(restart.startedAt - acceptedAt)} after the 202`;
  return failed ? `${conclusion}: the work was cut by ${when}` : `${conclusion}, across ${when}`;
}
