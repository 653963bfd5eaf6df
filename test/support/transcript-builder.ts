import type { Exchange, ExchangeTag, JsonParse, TransportError } from '../../src/transcript/exchange.js';
import { Transcript } from '../../src/transcript/transcript.js';
import type { ChangeSetInfo, JudgeContext } from '../../src/core/judge-context.js';

/** Start of every built transcript: times in builders are offsets in ms from here. */
export const T0 = 1_750_000_000_000;

export interface AnswerSpec {
  /** Offset in ms when the request was sent. Defaults to one after the previous exchange. */
  at?: number;
  /** How long the exchange took, ms. Default 5. */
  took?: number;
  status?: number;
  /** An object or array is sent as JSON text; a string is the raw body. */
  body?: unknown;
  contentType?: string | null;
  headers?: Record<string, string>;
  error?: TransportError;
  changeSet?: string;
  suite?: string;
  requestBody?: string;
  /** The seq of the POST this one repeats (repeat suites). */
  repeatOf?: number;
}

/** Builds transcripts by hand for rule tests: each call records one exchange. */
export class TranscriptBuilder {
  readonly transcript = new Transcript();
  private lastAt = 0;
  constructor(readonly baseUrl = 'http://127.0.0.1:8080') {}

  post(kind: 'plan' | 'apply', spec: AnswerSpec = {}): Exchange {
    return this.add(kind, 'POST', `/${kind}`, undefined, spec);
  }

  /** A POST whose body is not JSON, or JSON but not a change set. */
  badInput(kind: 'plan' | 'apply', spec: AnswerSpec = {}, tag: 'malformed-json' | 'invalid-change-set' = 'invalid-change-set'): Exchange {
    return this.add(tag, 'POST', `/${kind}`, undefined, spec, true);
  }

  read(operationId: string, spec: AnswerSpec & { tag?: ExchangeTag } = {}): Exchange {
    const tag = spec.tag ?? 'poll';
    return this.add(tag, 'GET', `/operations/${encodeURIComponent(operationId)}`, operationId, spec, tag !== 'poll');
  }

  /** A restart of the provisioner from `at` to `endAt` (ms offsets); `ok: false` for one that failed. */
  restart(at: number, endAt: number, ok = true): void {
    this.transcript.note({ type: 'restart-started', at: T0 + at, describe: 'restart command: ./restart.sh' });
    this.transcript.note({ type: 'restart-ended', at: T0 + endAt, ok, message: ok ? 'done' : 'exited with code 1', output: ok ? '' : 'no such service' });
    this.lastAt = Math.max(this.lastAt, endAt);
  }

  pollEnded(operationId: string, acceptedSeq: number, reason: 'final' | 'lost' | 'unexpected' | 'deadline' | 'aborted', at: number): void {
    this.transcript.note({ type: 'poll-ended', at: T0 + at, operationId, reason, acceptedSeq, conclusion: `ended: ${reason}` });
  }

  private add(tag: ExchangeTag, method: 'GET' | 'POST', path: string, operationId: string | undefined, spec: AnswerSpec, probe = false): Exchange {
    const at = spec.at ?? this.lastAt + 1;
    const took = spec.took ?? 5;
    this.lastAt = Math.max(this.lastAt, at + took);
    const bodyText = spec.body === undefined ? '' : typeof spec.body === 'string' ? spec.body : JSON.stringify(spec.body);
    const headers: Record<string, string> = { ...(spec.headers ?? {}) };
    const contentType = spec.contentType === undefined ? 'application/json' : spec.contentType;
    if (contentType !== null) headers['content-type'] = contentType;
    let json: JsonParse;
    try {
      json = { ok: true, value: JSON.parse(bodyText) as unknown };
    } catch (error) {
      json = { ok: false, error: (error as Error).message };
    }
    return this.transcript.record({
      suite: spec.suite ?? 'test',
      tag,
      probe,
      changeSet: spec.changeSet ?? (method === 'POST' ? 'shop-db' : undefined),
      operationId,
      ...(spec.repeatOf === undefined ? {} : { repeatOf: spec.repeatOf }),
      request: {
        method,
        url: `${this.baseUrl}${path}`,
        headers: method === 'POST' ? { 'content-type': 'application/json' } : {},
        body: method === 'POST' ? spec.requestBody ?? '{"changes":[]}' : undefined,
      },
      sentAt: T0 + at,
      respondedAt: spec.error ? undefined : T0 + at + took,
      endedAt: T0 + at + took,
      ...(spec.error
        ? { error: spec.error }
        : {
            response: {
              status: spec.status ?? 200,
              headers,
              body: bodyText,
              bodyBytes: Buffer.byteLength(bodyText),
              truncated: false,
              json,
            },
          }),
    });
  }
}

export const SHOP_DB: ChangeSetInfo = { name: 'shop-db', changes: [{ id: 'shop-db', environment: 'test' }] };

export function context(overrides: Partial<JudgeContext> = {}): JudgeContext {
  return {
    changeSets: [SHOP_DB],
    answerTimeoutMs: 10_000,
    pollIntervalMs: 1000,
    maxOperationDuration: { ms: 30 * 60_000, text: 'PT30M', source: 'default' },
    planOnly: false,
    startedAt: T0,
    ...overrides,
  };
}

/** A correct final answer for the shop-db change set. */
export function shopDbFinal(outcome: 'succeeded' | 'failed' = 'succeeded'): Record<string, unknown> {
  return {
    outcome,
    description: 'Handled shop-db.',
    results: [{ id: 'shop-db', environment: 'test', outcome, description: 'Handled shop-db.', outputs: { url: 'x' } }],
  };
}

export const IN_PROGRESS = { outcome: 'in_progress', description: 'Working on it.', results: [] };
export const OP_ID = '6f1c2a3e-8b4d-4e5f-9a7b-1c2d3e4f5a6b';
