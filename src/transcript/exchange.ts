import type { JsonParse } from '../core/json.js';
import type { PollEndReason } from '../core/operation-conclusion.js';
import type { Millis } from '../core/time.js';

// Times and parsed bodies are part of every exchange: those who read exchanges take them from here.
export type { JsonParse, Millis };

/**
 * Why an exchange was made. The control plane itself only makes `plan`, `apply` and `poll`;
 * every other tag marks a probe the kit adds to exercise a rule.
 */
export type ExchangeTag =
  | 'plan' // POST /plan with a change set
  | 'apply' // POST /apply with a change set
  | 'poll' // the control plane's read of an accepted operation
  | 'read-concurrent' // probe: an extra reader sent together with a poll
  | 'read-after-final' // probe: a read sent after a final answer was received
  | 'read-unknown' // probe: a random UUID the provisioner never issued
  | 'read-malformed' // probe: an id that is not a UUID
  | 'malformed-json' // probe: a POST whose body is not JSON
  | 'invalid-change-set'; // probe: a POST whose body is JSON but not a change set

export const READ_TAGS: readonly ExchangeTag[] = ['poll', 'read-concurrent', 'read-after-final'];

export interface RecordedRequest {
  method: 'GET' | 'POST';
  /** Absolute URL as sent. */
  url: string;
  /** Headers as sent, lower-case names. Secrets are redacted when reported, not here. */
  headers: Record<string, string>;
  /** Body text as sent. */
  body?: string;
}

export interface RecordedResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Body decoded as UTF-8 (after its gzip, deflate or br content coding, if any), cut at the client's body limit. */
  body: string;
  /** Bytes of the body (at most the limit), decoded when it came in a content coding the client decodes. */
  bodyBytes: number;
  /** The body was longer than the limit and was cut. */
  truncated: boolean;
  /** The body parsed as JSON (whatever the content type said), or why not. */
  json: JsonParse;
  /** sha256 (hex) of the bytes received. */
  sha256?: string;
  /** Only the head and tail of a long body are kept in `body`; `json` was parsed from all of it. */
  elided?: { headBytes: number; tailBytes: number };
}

export type TransportErrorKind =
  | 'timeout' // no complete answer within the time allowed
  | 'refused' // connection refused
  | 'reset' // connection reset or closed early
  | 'dns' // host name did not resolve
  | 'stopped' // the kit itself stopped the run before an answer came: says nothing about the provisioner
  | 'other';

export interface TransportError {
  kind: TransportErrorKind;
  message: string;
}

export type SubmitKind = 'plan' | 'apply';

/** One request and what came back: a response, or a transport error. Never both. */
export interface Exchange {
  /** Position in the run-wide transcript, from 1. */
  seq: number;
  /** The suite or story that drove it, e.g. `scenario/plan-and-apply`. */
  suite: string;
  tag: ExchangeTag;
  /** A read or call the control plane itself would not make. */
  probe: boolean;
  /** Name of the change set sent (POSTs) or whose operation is read. */
  changeSet?: string;
  /** For reads: the id as placed in the URL (before encoding). */
  operationId?: string;
  /** For a POST sent again byte for byte by a repeat suite: the seq of the first POST it repeats. */
  repeatOf?: number;
  request: RecordedRequest;
  sentAt: Millis;
  /** When status and headers arrived. */
  respondedAt?: Millis;
  /** When the body was complete, or the error happened. */
  endedAt: Millis;
  response?: RecordedResponse;
  error?: TransportError;
}

/** Things the kit concluded or did while driving, which rules may need besides the exchanges. */
export type TranscriptEvent =
  | {
      type: 'poll-ended';
      at: Millis;
      operationId: string;
      reason: PollEndReason;
      /** The 202 answer that started the operation. */
      acceptedSeq: number;
      /** What the control plane would conclude, in one sentence. */
      conclusion: string;
    }
  | {
      /** The kit began to restart the provisioner (--restart-command): reads may be refused until it ends. */
      type: 'restart-started';
      at: Millis;
      /** What restarts it, e.g. the shell command. */
      describe: string;
    }
  | {
      /** The kit was to restart the provisioner but did not: why (e.g. no work was in progress to survive it). */
      type: 'restart-skipped';
      at: Millis;
      message: string;
    }
  | {
      type: 'restart-ended';
      at: Millis;
      /** The restart did what it should; false: it failed or timed out, a kit error. */
      ok: boolean;
      message: string;
      /** What the restart printed (stdout and stderr), cut to its end when long. */
      output?: string;
    };
