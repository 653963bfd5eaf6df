import { randomUUID } from 'node:crypto';
import { http, HttpResponse } from 'msw';
import { serveHandlers } from './msw-server.js';

type Handlers = Parameters<typeof serveHandlers>[0];

interface Change {
  id: string;
  environment: string;
}

interface Operation {
  kind: 'plan' | 'apply';
  /** The body as sent: the same bytes are the same change set. */
  body: string;
  changes: Change[];
  endsAt: number;
  final: Record<string, unknown>;
  /** Someone has read the final answer: to this provisioner, the work is over only then. */
  finalRead: boolean;
}

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
 * earlier apply has not been read to its final answer yet joins that work (same end, new operation id):
 * "running" is what the caller can have seen, not the server's clock, so the tests never race it.
 */
export function situationProvisioner(quirks: Quirks): Handlers {
  const operations = new Map<string, Operation>();
  const generations = new Map<string, number>();
  const plansSeen = new Map<string, number>();
  const running = (now: number): Operation[] => [...operations.values()].filter((op) => op.endsAt > now);

  const submit = (kind: 'plan' | 'apply') => async ({ request }: { request: Request }): Promise<Response> => {
    const body = await request.text();
    const changes = (JSON.parse(body) as { changes: Change[] }).changes;
    const now = Date.now();
    let final: Record<string, unknown>;
    let endsAt = now + quirks.workMs;
    if (kind === 'plan') {
      const seen = (plansSeen.get(body) ?? 0) + 1;
      plansSeen.set(body, seen);
      final = quirks.driftingPlans && seen % 2 === 0 ? finalFor(changes, 'failed', 'Plan found a conflict') : finalFor(changes, 'succeeded', 'Planned');
    } else {
      const previous = [...operations.values()].filter((op) => op.kind === 'apply' && op.body === body);
      const inProgress = previous.find((op) => !op.finalRead);
      if (inProgress && quirks.applyAgain?.running === 'already-running') {
        return HttpResponse.json(finalFor(changes, 'failed', 'Another apply of these changes is already running'));
      }
      if (!inProgress && previous.length > 0 && quirks.applyAgain?.ended === 'conflict') {
        return HttpResponse.json({ message: 'these resources already exist' }, { status: 409 });
      }
      if (inProgress) {
        final = inProgress.final;
        endsAt = inProgress.endsAt;
      } else {
        const generation = (generations.get(body) ?? 0) + 1;
        generations.set(body, generation);
        final = finalFor(changes, 'succeeded', 'Applied', quirks.outputs?.(generation) ?? { resourceId: 'res-1' });
      }
    }
    if (quirks.capacity && running(now).length >= quirks.capacity.limit) {
      const full = quirks.capacity.whenFull;
      if (full === 'run-at-once') return HttpResponse.json(final);
      return HttpResponse.json({ message: 'too much work in progress' }, { status: full, headers: full === 429 ? { 'retry-after': '1' } : {} });
    }
    const id = randomUUID();
    operations.set(id, { kind, body, changes, endsAt, final, finalRead: false });
    return HttpResponse.json({ operationId: id }, { status: 202 });
  };

  return [
    http.post('*/plan', submit('plan')),
    http.post('*/apply', submit('apply')),
    http.get('*/operations/:id', ({ params }) => {
      const op = operations.get(String(params.id));
      if (!op) return HttpResponse.json({ message: 'unknown operation' }, { status: 404 });
      if (op.endsAt > Date.now()) return HttpResponse.json({ outcome: 'in_progress', description: `Working on ${op.changes.length} change(s).`, results: [] });
      op.finalRead = true;
      return HttpResponse.json(op.final);
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
