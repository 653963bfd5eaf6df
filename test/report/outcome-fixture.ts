import type { RuleResult, RuleStatus } from '../../src/rules/types.js';
import { RULES } from '../../src/rules/index.js';
import type { RunOutcome } from '../../src/runner/outcome.js';
import { context, IN_PROGRESS, OP_ID, shopDbFinal, T0, TranscriptBuilder } from '../support/transcript-builder.js';

export const NGINX_502 = [
  '<html>',
  '<head><title>502 Bad Gateway</title></head>',
  '<body>',
  '<center><h1>502 Bad Gateway</h1></center>',
  '<hr><center>nginx/1.25.4</center>',
  '</body>',
  '</html>',
  '',
].join('\r\n');

export const HTML_PAGE_WITH_STYLE = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Service Unavailable</title>
  <style>body { font-family: sans-serif; color: #c00 } .hidden-style-marker { display: none }</style>
  <script>window.secretScriptMarker = 1;</script>
</head>
<body>
  <h1>Service Unavailable</h1>
  <p>The gateway could not reach <a href="https://status.example.net/">the provisioner</a> in time.</p>
</body>
</html>`;

function rule(id: string, status: RuleStatus, message: string, evidence: RuleResult['evidence'] = [], count?: number): RuleResult {
  const entry = RULES.find((candidate) => candidate.id === id)!;
  return { id, level: entry.level, title: entry.title, sentence: entry.sentence, status, message, evidence, ...(count !== undefined && { count }) };
}

/** A small run: one apply accepted and polled, one read that hit a proxy, one unknown-id probe, one timeout. */
export function sampleOutcome(overrides: Partial<RunOutcome> = {}): RunOutcome {
  const b = new TranscriptBuilder();
  const apply = b.post('apply', {
    at: 10,
    took: 38,
    status: 202,
    body: { operationId: OP_ID },
    requestBody: JSON.stringify({ changes: [{ id: 'shop-db', environment: 'test' }], adminPassword: "it's-s3cret" }),
  });
  const poll = b.read(OP_ID, { at: 60, status: 200, body: IN_PROGRESS });
  const proxied = b.read(OP_ID, { at: 1100, status: 502, body: HTML_PAGE_WITH_STYLE, contentType: 'text/html', headers: { server: 'nginx', 'retry-after': '5' } });
  const final = b.read(OP_ID, { at: 2100, status: 200, body: { ...shopDbFinal(), token: 'abc123' } });
  const after = b.read(OP_ID, { at: 2200, status: 200, body: IN_PROGRESS, tag: 'read-after-final' });
  const unknown = b.read('0b8e7d2c-1f3a-4c5b-8d6e-7f8a9b0c1d2e', { at: 2300, status: 404, body: 'Not Found', contentType: 'text/plain', tag: 'read-unknown' });
  const timeout = b.read(OP_ID, { at: 2400, took: 10_000, error: { kind: 'timeout', message: 'headers timeout' }, tag: 'read-concurrent' });
  b.pollEnded(OP_ID, apply.seq, 'final', 2110);

  const rules: RuleResult[] = [
    rule('answer.status', 'pass', 'every plan and apply answered 200 or 202'),
    rule('operation.no-in-progress-after-final', 'fail', '1 read sent after a final answer said in_progress', [
      { note: 'final answer received, then in_progress', exchanges: [final.seq, after.seq] },
    ]),
    rule('operation.transient-errors', 'warn', '2 reads failed transiently', [{ note: 'a proxy answered 502', exchanges: [proxied.seq] }, { note: 'a read timed out', exchanges: [timeout.seq] }], 2),
    rule('operation.404-identifiable', 'advice', 'a 404 was plain text', [{ note: 'plain-text 404', exchanges: [unknown.seq] }]),
    rule('durability.survives-restart', 'not-exercised', 'no --restart-command was given'),
    rule('plan.repeatable', 'skip', 'deselected with --skip'),
  ];
  void poll;
  return {
    kit: { name: 'provisioner-conformance', version: '0.1.0' },
    target: { url: b.baseUrl },
    startedAt: T0,
    finishedAt: T0 + 12_500,
    verdict: 'fail',
    exitCode: 1,
    summary: { passed: 1, failed: 1, warned: 1, advice: 1, skipped: 1, notExercised: 1 },
    rules,
    conclusions: ['The provisioner answered 202: the async rules were exercised.'],
    operations: [{ operationId: OP_ID, changeSet: 'shop-db', kind: 'apply', reason: 'final', conclusion: 'the control plane would record succeeded' }],
    properties: [],
    settings: {
      pollInterval: { text: 'PT1S', ms: 1000 },
      answerTimeout: { text: 'PT10S', ms: 10_000 },
      maxOperationDuration: { ms: 300_000, text: 'PT5M', source: 'flag' },
      changesPointer: '/changes',
      planOnly: false,
      strict: false,
      showSecrets: false,
      changeSets: ['shop-db'],
    },
    context: context(),
    transcript: b.transcript,
    ...overrides,
  };
}

/** The sample run with one rule about a way of answering the provisioner never chose. */
export function sampleOutcomeWithNotApplicable(): RunOutcome {
  const outcome = sampleOutcome();
  const notApplicable = rule('final.body', 'not-applicable', 'all 183 plan and apply calls were answered 202: no 200 answer to judge');
  return { ...outcome, rules: [...outcome.rules, notApplicable], summary: { ...outcome.summary, notApplicable: 1 } };
}
