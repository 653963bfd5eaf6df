import { afterEach } from 'vitest';
import { startReferenceProvisioner } from '../../src/reference/index.js';
import type { ReferenceOptions, RunningReference } from '../../src/reference/index.js';

/** A change set with two changes, as the guide's postgres example would send it. */
export const SHOP_DB = {
  application: 'container-shop',
  environment: 'test',
  kind: 'managed-resource',
  type: 'postgres',
  changes: [
    { id: 'shop-db', environment: 'test', action: 'created', properties: { version: '16', size: 'small' } },
    { id: 'shop-archive', environment: 'test', action: 'removed' },
  ],
};

export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export interface Answer {
  status: number;
  contentType: string;
  text: string;
  /** The body parsed as JSON, whatever the content type said; undefined when it is not JSON. */
  json: Record<string, unknown> | undefined;
}

/** Starts references for one test file and closes every one of them after each test. */
export function referenceStarter(): (options?: ReferenceOptions) => Promise<RunningReference> {
  const running: RunningReference[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((reference) => reference.close()));
  });
  return async (options = {}) => {
    const reference = await startReferenceProvisioner(options);
    running.push(reference);
    return reference;
  };
}

export async function submit(baseUrl: string, kind: 'plan' | 'apply', body: unknown = SHOP_DB): Promise<Answer> {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return answerOf(await fetch(`${baseUrl}/${kind}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text }));
}

export async function read(baseUrl: string, operationId: string): Promise<Answer> {
  return answerOf(await fetch(`${baseUrl}/operations/${operationId}`));
}

/** Starts work that answers 202 and returns its operationId. */
export async function accepted(baseUrl: string, kind: 'plan' | 'apply' = 'apply', body: unknown = SHOP_DB): Promise<string> {
  const answer = await submit(baseUrl, kind, body);
  if (answer.status !== 202) throw new Error(`expected 202, got ${answer.status}: ${answer.text}`);
  return String(answer.json?.operationId);
}

/** Reads until the answer is no longer in_progress (a 503 is read again), like the control plane. */
export async function readUntilFinal(baseUrl: string, operationId: string, intervalMs = 20, timeoutMs = 5000): Promise<Answer[]> {
  const answers: Answer[] = [];
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const answer = await read(baseUrl, operationId);
    answers.push(answer);
    if (answer.status !== 503 && answer.json?.outcome !== 'in_progress') return answers;
    await sleep(intervalMs);
  }
  throw new Error(`operation ${operationId} gave no final answer within ${timeoutMs} ms`);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  let json: Record<string, unknown> | undefined;
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) json = value as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', text, json };
}
