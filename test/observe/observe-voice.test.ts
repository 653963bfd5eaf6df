import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveObserveConfig } from '../../src/config/observe-config.js';
import type { ObserveEvent } from '../../src/observe/observation-news.js';
import { startObservation } from '../../src/observe/observe.js';
import { IN_PROGRESS } from '../support/transcript-builder.js';
import { ROOT } from '../e2e/run-cli.js';

type ObserveModule = typeof import('../../src/observe/observe.js');
type ConfigModule = typeof import('../../src/config/observe-config.js');

const CHANGE_SET = readFileSync(join(ROOT, 'fixtures', 'change-sets', 'postgres.json'), 'utf8');
const CHANGES = (JSON.parse(CHANGE_SET) as { changes: Array<{ id: string; environment: string }> }).changes;
const SUCCEEDED = {
  outcome: 'succeeded',
  description: `Handled ${CHANGES.length} changes.`,
  results: CHANGES.map((change) => ({ id: change.id, environment: change.environment, outcome: 'succeeded', description: `Handled ${change.id}.` })),
};
const RULE = 'operation.no-in-progress-after-final';

/** Scripted by count, not time: each operation's first read in progress, the second final, the third in progress again. */
function fickleProvisioner(): Server {
  const reads = new Map<string, number>();
  return createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(req.url === '/apply' ? 202 : 200, { 'content-type': 'application/json' });
      if (req.url === '/apply') return res.end(JSON.stringify({ operationId: randomUUID() }));
      const id = String(req.url).split('/').pop()!;
      const count = (reads.get(id) ?? 0) + 1;
      reads.set(id, count);
      res.end(JSON.stringify(count === 2 ? SUCCEEDED : IN_PROGRESS));
    });
  });
}

let fickle: Server;
let upstream: string;
beforeAll(async () => {
  fickle = fickleProvisioner().listen(0, '127.0.0.1');
  await once(fickle, 'listening');
  upstream = `http://127.0.0.1:${(fickle.address() as AddressInfo).port}`;
});
afterAll(async () => {
  fickle.closeAllConnections();
  await new Promise((resolve) => fickle.close(resolve));
});

/** Three applies, each read three times: every operation breaks the rule once, after its final answer. */
async function drive(base: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const accepted = await fetch(`${base}/apply`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: CHANGE_SET });
    const id = ((await accepted.json()) as { operationId: string }).operationId;
    ids.push(id);
    for (let read = 0; read < 3; read++) await (await fetch(`${base}/operations/${id}`)).arrayBuffer();
  }
  return ids;
}

describe('observe tells as it runs, through the real proxy', () => {
  const cases: Array<[string, () => Promise<[ObserveModule['startObservation'], ConfigModule['resolveObserveConfig']]>]> = [
    ['judges on the proxy thread (sources)', async () => [startObservation, resolveObserveConfig]],
    [
      'judges on their worker thread (dist)',
      async () => [
        ((await import(pathToFileURL(join(ROOT, 'dist', 'src', 'observe', 'observe.js')).href)) as ObserveModule).startObservation,
        ((await import(pathToFileURL(join(ROOT, 'dist', 'src', 'config', 'observe-config.js')).href)) as ConfigModule).resolveObserveConfig,
      ],
    ],
  ];
  it.each(cases)('the first break of a rule names its operation and exchange as the evidence does, later ones are counted (%s)', async (_where, load) => {
    const [start, resolve] = await load();
    const config = await resolve({ upstream, listen: '127.0.0.1:0', maxOperationDuration: 'PT20S' });
    const events: ObserveEvent[] = [];
    const observation = await start(config, { onEvent: (event) => events.push(event) });
    try {
      const ids = await drive(observation.url);
      const outcome = await observation.stop();
      const broken = events.filter((event) => event.kind === 'rule-broken');
      expect(broken.map((event) => event.ruleId)).toEqual([RULE]);
      const first = broken[0]!;
      expect(first).toMatchObject({ kind: 'rule-broken', level: 'MUST', status: 'fail', operationId: ids[0] });
      // The number the report's evidence gives that exchange: the first operation's third read, the observation's fourth exchange.
      const evidence = outcome.rules.find((rule) => rule.id === RULE)!.evidence;
      expect(first.exchange).toBe(4);
      expect(evidence[0]!.exchanges).toContain(first.exchange);
      expect(observation.progress()).toMatchObject({ exchanges: 12, operations: { followed: 3, open: 0, ended: 3 }, broken: { [RULE]: 3 }, upstream: { answering: true } });
    } finally {
      await observation.stop();
    }
  });
});
