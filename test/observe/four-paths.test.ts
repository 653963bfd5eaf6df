import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { JudgeContext } from '../../src/core/judge-context.js';
import { observedContext } from '../../src/observe/observe.js';
import { ExchangeRecorder, type SeenExchange } from '../../src/observe/recorder.js';
import { StreamingJudge } from '../../src/observe/streaming-judge.js';
import { verifyHar } from '../../src/observe/verify-har.js';
import type { RuleSelection } from '../../src/rules/index.js';
import type { RuleStatus } from '../../src/rules/types.js';
import { judgeReadTranscript } from '../../src/runner/verify.js';
import type { Exchange } from '../../src/transcript/exchange.js';
import { readTranscriptFile } from '../../src/transcript/transcript-file.js';
import { Transcript } from '../../src/transcript/transcript.js';
import { SituationViews } from '../../src/rules/support/situation-views.js';
import { isUuidText } from '../../src/observe/id-key.js';
import { acceptedOperationId } from '../../src/transcript/views.js';
import { harOf } from '../support/har-of.js';

const FIXTURES = 'fixtures/transcripts';
const BODY_LIMIT = 1024 * 1024;
const CHANGES_POINTER = '/changes';

/** Every transcript the kit recorded, from its runs against the reference and against provisioners written apart from it. */
const FILES = [
  ...readdirSync(FIXTURES).filter((name) => name.endsWith('.json')).map((name) => join(FIXTURES, name)),
  ...readdirSync(join(FIXTURES, 'situations')).filter((name) => name.endsWith('.json')).map((name) => join(FIXTURES, 'situations', name)),
].sort();

/** What a transcript shows that decides whether a known difference applies to it. */
interface Shown {
  /** The results of the batch judgement, by rule id. */
  judged: Statuses;
  transcript: Transcript;
}

/** A rule that may differ, when it does, what observed traffic says of it instead, and why. */
interface KnownDifference {
  rule: string;
  when: (shown: Shown) => boolean;
  observed: RuleStatus;
  why: string;
}

/**
 * Differences that come from what only the kit that drove the run knows, never from what the provisioner did:
 * each rule, when it applies, and why a proxy cannot know it.
 */
const RUN_ONLY: readonly KnownDifference[] = [
  {
    rule: 'capacity.burst',
    when: () => true,
    observed: 'not-exercised',
    why: 'a burst is load the kit sends on purpose; a proxy sees the calls, not that they were one burst',
  },
  {
    rule: 'answer.status',
    when: ({ judged }) => judged['capacity.burst'] === 'fail',
    observed: 'fail',
    why: 'a 429 or 5xx to a call of the burst is the burst rule\'s in a run; traffic that has no burst blames the call (both fail)',
  },
  {
    rule: 'operation.unknown-404',
    when: () => true,
    observed: 'not-exercised',
    why: 'run reads ids it made up; a proxy knows an id was never issued only once it has watched a whole deadline without seeing it',
  },
  {
    rule: 'operation.malformed-id',
    when: ({ transcript }) => !transcript.exchanges.some((exchange) => isUuidText(acceptedOperationId(exchange) ?? '')),
    observed: 'not-exercised',
    why: 'a read of an id that is no UUID is malformed to a proxy only once the provisioner was seen giving UUIDs: it may have issued that id itself',
  },
  {
    rule: 'apply.idempotent',
    when: ({ judged }) => judged['accepted.operation-id-unique'] === 'fail',
    observed: 'not-exercised',
    why: 'run knows which of its calls read an operationId given twice; a proxy cannot tell their reads apart, so those calls end unknown',
  },
  {
    rule: 'apply.repeat-while-running',
    when: ({ judged }) => judged['accepted.operation-id-unique'] === 'fail',
    observed: 'not-exercised',
    why: 'as apply.idempotent: the reads of an operationId given twice belong to no one call a proxy can tell',
  },
  {
    rule: 'plan.repeatable',
    when: ({ judged }) => judged['accepted.operation-id-unique'] === 'fail',
    observed: 'not-exercised',
    why: 'as apply.idempotent: the reads of an operationId given twice belong to no one call a proxy can tell',
  },
];

/**
 * A restart is the kit's own act too: run sets aside what it provoked (its suite's exchanges, whatever was in
 * flight while the provisioner restarted, the reads it made fail) and judges it by durability.survives-restart
 * alone, where a proxy sees refused connections and lost work. The four ways are compared on the exchanges
 * the restart left as they were; on the whole transcript, observed traffic says it saw no restart.
 */
function withoutRestart(transcript: Transcript): Transcript {
  const kept = new SituationViews(transcript).for('without-restart');
  return new Transcript(kept.exchanges, kept.events.filter((event) => event.type === 'poll-ended'));
}

const DURABILITY = 'durability.survives-restart';

function restarted(transcript: Transcript): boolean {
  return transcript.events.some((event) => event.type === 'restart-started');
}

type Statuses = Record<string, RuleStatus>;

function statusesOf(results: ReadonlyArray<{ id: string; status: RuleStatus }>): Statuses {
  return Object.fromEntries(results.map((result) => [result.id, result.status]));
}

/** An exchange the kit recorded, as the observer's proxy saw it on the wire, before the recorder reads it. */
function seenOf(exchange: Exchange): SeenExchange {
  const url = new URL(exchange.request.url);
  const { response } = exchange;
  return {
    method: exchange.request.method,
    url: exchange.request.url,
    path: `${url.pathname}${url.search}`,
    requestHeaders: exchange.request.headers,
    ...(exchange.request.body !== undefined && { requestBody: exchange.request.body }),
    sentAt: exchange.sentAt,
    ...(exchange.respondedAt !== undefined && { respondedAt: exchange.respondedAt }),
    endedAt: exchange.endedAt,
    ...(response && { response: { status: response.status, headers: response.headers, chunks: [Buffer.from(response.body)], truncated: response.truncated } }),
    ...(exchange.error && { error: exchange.error }),
  };
}

/** (a) `verify FILE` of a run's transcript: judged whole, as the run judged it. */
function batch(transcript: Transcript, context: JudgeContext, file: string): Statuses {
  return statusesOf(judgeReadTranscript({ transcript, context }, file, {}).rules);
}

/** (b) `observe`: the exchanges handed to a streaming judge as the proxy hands them, each once its answer ended. */
async function observed(transcript: Transcript, context: JudgeContext, selection: RuleSelection = {}): Promise<Statuses> {
  const judge = new StreamingJudge({ context: observedContext(context, context.startedAt), selection, changesPointer: CHANGES_POINTER });
  const recorder = new ExchangeRecorder(BODY_LIMIT);
  const inEndOrder = transcript.exchanges.slice().sort((a, b) => a.endedAt - b.endedAt || a.seq - b.seq);
  for (const exchange of inEndOrder) {
    judge.sweep(exchange.endedAt);
    const recorded = await recorder.record(seenOf(exchange));
    if (recorded) judge.add(recorded);
    else judge.other();
  }
  judge.finish(Math.max(context.startedAt, judge.latest));
  return statusesOf(judge.results());
}

const dir = mkdtempSync(join(tmpdir(), 'pc-four-paths-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** (c) `verify --har`: the exchanges written as a HAR file, in the transcript's order, and read back. */
async function fromHar(transcript: Transcript, context: JudgeContext, name: string): Promise<Statuses> {
  const path = join(dir, `${name}.har`);
  writeFileSync(path, harOf(transcript.exchanges));
  const outcome = await verifyHar(path, {
    maxOperationDuration: context.maxOperationDuration,
    ...(context.registration && { registration: context.registration }),
    answerTimeoutMs: context.answerTimeoutMs,
    pollIntervalMs: context.pollIntervalMs,
    selection: {},
    changesPointer: CHANGES_POINTER,
    showSecrets: false,
    bodyLimitBytes: BODY_LIMIT,
  });
  return statusesOf(outcome.rules);
}

/** Each known difference, by its why, with how often it was seen: one that never is has no place in the lists. */
const seen = new Map<string, number>(RUN_ONLY.map((known) => [known.why, 0]));

/**
 * The rules whose status differs from the batch judgement's, as `id: batch → other`, but for the known ones
 * when their situation is shown and the other says what they say it does.
 */
function differences(shown: Shown, other: Statuses): string[] {
  const known = RUN_ONLY.filter((difference) => difference.when(shown));
  return Object.keys(shown.judged).flatMap((id) => {
    if (shown.judged[id] === other[id]) return [];
    const excused = known.find((difference) => difference.rule === id && difference.observed === other[id]);
    if (excused) {
      seen.set(excused.why, (seen.get(excused.why) ?? 0) + 1);
      return [];
    }
    return [`${id}: ${shown.judged[id]} → ${other[id]}`];
  });
}

describe('run, verify FILE, observe and verify --har give each rule the same status on the same exchanges', () => {
  it.each(FILES.map((file) => [file.slice(FIXTURES.length + 1), file] as const))('%s', async (name, file) => {
    const read = await readTranscriptFile(file);
    const { context } = read;
    const transcript = withoutRestart(read.transcript);
    const shown: Shown = { judged: batch(transcript, context, file), transcript };
    if (restarted(read.transcript)) {
      // With the restart taken out, run's judgement of every other rule is the one it gave the whole transcript.
      const whole = batch(read.transcript, context, file);
      expect({ ...whole, [DURABILITY]: shown.judged[DURABILITY] }).toEqual(shown.judged);
      // A proxy does not know the provisioner was restarted on purpose: it says it saw no restart, never that one was survived.
      expect((await observed(read.transcript, context, { only: [DURABILITY] }))[DURABILITY]).toBe('not-exercised');
    }
    const live = await observed(transcript, context);
    const har = await fromHar(transcript, context, name.replace(/\W+/g, '-'));
    expect({ observe: differences(shown, live), har: differences(shown, har) }).toEqual({ observe: [], har: [] });
  });

  it('lists no known difference that no recorded transcript shows', () => {
    expect([...seen].filter(([, count]) => count === 0).map(([why]) => why)).toEqual([]);
  });
});
