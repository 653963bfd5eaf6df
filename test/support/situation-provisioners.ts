import { randomUUID } from 'node:crypto';
import { http, HttpResponse } from 'msw';
import { serveHandlers } from './msw-server.js';

type Handlers = Parameters<typeof serveHandlers>[0];

interface Change {
  id: string;
  environment: string;
}

/** The work behind one or more operations (an apply that joins running work shares it). */
interface Work {
  /** Infinity while the work waits for its repeat (see below). */
  endsAt: number;
  final: Record<string, unknown>;
}

interface Operation {
  kind: 'plan' | 'apply';
  /** The body as sent: the same bytes are the same change set. */
  body: string;
  changes: Change[];
  work: Work;
  /** Someone has read the final answer: to this provisioner, the work is over only then. */
  finalRead: boolean;
}

/** Longest the first apply of a change set waits for its repeat before it starts anyway. */
const REPEAT_WAIT_MS = 5000;

/** How a provisioner written apart from the kit and the reference deviates from a correct one. */
export interface Quirks {
  /** How long accepted work takes, ms. */
  workMs: number;
  /** Outputs of a new apply (not one that joins work in progress); `generation` counts new applies of the same change set. */
  outputs?: (generation: number) => Record<string, unknown>;
  /** What an apply of a change set whose apply already ended, or is still running, gets instead of new work. */
  applyAgain?: { ended?: 'conflict'; running?: 'join' | 'already-running' };
  /** Every second plan of the same change set fails. */
  driftingPlans?: boolean;
  /** At most this many operations in progress; a call past it gets `whenFull`. */
  capacity?: { limit: number; whenFull: 'run-at-once' | 429 | 503 };
}

function finalFor(changes: Change[], outcome: 'succeeded' | 'failed', description: string, outputs?: Record<string, unknown>): Record<string, unknown> {
  return {
    outcome,
    description,
    results: changes.map((c) => ({ id: c.id, environment: c.environment, outcome, description: `${description} (${c.id})`, ...(outputs ? { outputs } : {}) })),
  };
}

/**
 * An asynchronous provisioner with its own store and clock, correct by default: each plan and apply is
 * accepted with 202 and ends `workMs` later with one result per change. An apply of a change set whose
 * earlier apply has not been read to its final answer yet joins that work (same end, new operation id).
 * So that the kit's repeat always finds the first apply running, however slow the machine, the first
 * apply of a change set starts its work only once the next apply of it has arrived (or after a few
 * seconds): what the tests see never depends on speed.
 */
export function situationProvisioner(quirks: Quirks): Handlers {
  const operations = new Map<string, Operation>();
  const generations = new Map<string, number>();
  const plansSeen = new Map<string, number>();
  const running = (now: number): Operation[] => [...operations.values()].filter((op) => op.work.endsAt > now);

  const submit = (kind: 'plan' | 'apply') => async ({ request }: { request: Request }): Promise<Response> => {
    const body = await request.text();
    const changes = (JSON.parse(body) as { changes: Change[] }).changes;
    const now = Date.now();
    let work: Work;
    if (kind === 'plan') {
      const seen = (plansSeen.get(body) ?? 0) + 1;
      plansSeen.set(body, seen);
      const final = quirks.driftingPlans && seen % 2 === 0 ? finalFor(changes, 'failed', 'Plan found a conflict') : finalFor(changes, 'succeeded', 'Planned');
      work = { endsAt: now + quirks.workMs, final };
    } else {
      const previous = [...operations.values()].filter((op) => op.kind === 'apply' && op.body === body);
      // The first apply's work starts now that its repeat is here.
      for (const op of previous) if (op.work.endsAt === Number.POSITIVE_INFINITY) op.work.endsAt = now + quirks.workMs;
      const inProgress = previous.find((op) => !op.finalRead);
      if (inProgress && quirks.applyAgain?.running === 'already-running') {
        return HttpResponse.json(finalFor(changes, 'failed', 'Another apply of these changes is already running'));
      }
      if (!inProgress && previous.length > 0 && quirks.applyAgain?.ended === 'conflict') {
        return HttpResponse.json({ message: 'these resources already exist' }, { status: 409 });
      }
      if (inProgress) {
        work = inProgress.work;
      } else {
        const generation = (generations.get(body) ?? 0) + 1;
        generations.set(body, generation);
        const final = finalFor(changes, 'succeeded', 'Applied', quirks.outputs?.(generation) ?? { resourceId: 'res-1' });
        work = { endsAt: previous.length === 0 ? Number.POSITIVE_INFINITY : now + quirks.workMs, final };
        if (previous.length === 0) setTimeout(() => (work.endsAt = Math.min(work.endsAt, Date.now() + quirks.workMs)), REPEAT_WAIT_MS).unref();
      }
    }
    if (quirks.capacity && running(now).length >= quirks.capacity.limit) {
      const full = quirks.capacity.whenFull;
      if (full === 'run-at-once') return HttpResponse.json(work.final);
      return HttpResponse.json({ message: 'too much work in progress' }, { status: full, headers: full === 429 ? { 'retry-after': '1' } : {} });
    }
    const id = randomUUID();
    operations.set(id, { kind, body, changes, work, finalRead: false });
    return HttpResponse.json({ operationId: id }, { status: 202 });
  };

  return [
    http.post('*/plan', submit('plan')),
    http.post('*/apply', submit('apply')),
    http.get('*/operations/:id', ({ params }) => {
      const op = operations.get(String(params.id));
      if (!op) return HttpResponse.json({ message: 'unknown operation' }, { status: 404 });
      if (op.work.endsAt > Date.now()) return HttpResponse.json({ outcome: 'in_progress', description: `Working on ${op.changes.length} change(s).`, results: [] });
      op.finalRead = true;
      return HttpResponse.json(op.work.final);
    }),
  ];
}

/**
 * Holds every POST /plan until `expected` requests are open at once, then answers them all (and every
 * later one) with 200: a burst whose calls are not all in flight together never gets past it (after
 * `giveUpMs` they get 503).
 */
export function barrierProvisioner(expected: number, giveUpMs: number): { handlers: Handlers; mostOpen(): number } {
  let open = 0;
  let most = 0;
  let release: () => void = () => undefined;
  // Once released it stays released: calls that arrive after the burst are answered at once.
  const released = new Promise<void>((resolve) => (release = resolve));
  const handlers: Handlers = [
    http.post('*/plan', async ({ request }) => {
      const changes = ((await request.json()) as { changes: Change[] }).changes;
      open++;
      most = Math.max(most, open);
      if (open >= expected) release();
      const timer = new Promise<'gave-up'>((resolve) => setTimeout(() => resolve('gave-up'), giveUpMs).unref());
      const how = await Promise.race([released.then(() => 'released' as const), timer]);
      open--;
      if (how === 'gave-up') return HttpResponse.json({ message: 'the burst never arrived whole' }, { status: 503 });
      return HttpResponse.json(finalFor(changes, 'succeeded', 'Planned'));
    }),
    http.post('*/apply', async ({ request }) => {
      const changes = ((await request.json()) as { changes: Change[] }).changes;
      return HttpResponse.json(finalFor(changes, 'succeeded', 'Applied', { resourceId: 'res-1' }));
    }),
    http.get('*/operations/:id', () => HttpResponse.json({ message: 'unknown operation' }, { status: 404 })),
  ];
  return { handlers, mostOpen: () => most };
}
