import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { htmlReportFor, htmlReportText, writeHtmlReport } from '../../src/report/write-html.js';
import { SecretMask } from '../../src/report/secret-mask.js';
import { buildTimeline } from '../../src/report/html/timeline.js';
import { laneLabel, TIMELINE_STYLE, timelineHtml, timelineLegend } from '../../src/report/html/timeline-svg.js';
import { escapeHtml } from '../../src/report/html/escape.js';
import { Transcript } from '../../src/transcript/transcript.js';
import { IN_PROGRESS, OP_ID, shopDbFinal, TranscriptBuilder } from '../support/transcript-builder.js';
import { sampleOutcome } from './outcome-fixture.js';
import { bigFailingOutcome } from './big-outcome.js';

describe('the HTML report of a run', () => {
  const outcome = sampleOutcome();
  const html = htmlReportFor(outcome);

  it('shows the verdict and counts at the top', () => {
    expect(html).toMatch(/<h1><span class="verdict fail">fail<\/span>/);
    // Counts lead to their sections: the details of what needs attention, the rules table for the rest.
    expect(html).toContain('<li><a href="#findings"><strong>1</strong> failed</a></li>');
    expect(html).toContain('<li><a href="#rules"><strong>1</strong> not exercised</a></li>');
    expect(html).toContain('<li><a href="#timeline"><strong>1</strong> operation</a></li>');
    for (const [, target] of html.matchAll(/<a href="#([^"]+)"/g)) expect(html).toContain(`id="${target}"`);
  });

  it('counts rules not applicable only when there are some', () => {
    expect(html).not.toContain('not applicable</a>');
    const oneWay = sampleOutcome();
    oneWay.summary = { ...oneWay.summary, notApplicable: 2 };
    expect(htmlReportFor(oneWay)).toContain('<li><a href="#rules"><strong>2</strong> not applicable</a></li>');
  });

  it('lists each rule that did not hold in the header, with its first piece of evidence and what it answered', () => {
    const header = html.slice(html.indexOf('<header>'), html.indexOf('</header>'));
    expect(header.match(/<li class="s-/g)).toHaveLength(2);
    expect(header).toMatch(/<a href="#rule-operation\.no-in-progress-after-final"><code>operation\.no-in-progress-after-final<\/code><\/a>/);
    expect(header).toContain('final answer received, then in_progress');
    expect(header).toMatch(/<code>#\d+<\/code> GET <code>[^<]+<\/code> → <strong>200 succeeded<\/strong>.*<code>#\d+<\/code> GET <code>[^<]+<\/code> → <strong>200 in_progress<\/strong>/);
    expect(header).toContain('a proxy answered 502');
    // Advice is not a rule that did not hold: it stays with the details below.
    expect(header).not.toContain('operation.404-identifiable');
  });

  it("lists the first exchanges of a rule's first piece of evidence in the order they were sent, whatever the rule's order", () => {
    const newestFirst = sampleOutcome();
    newestFirst.rules[1]!.evidence = [{ note: 'newest first', exchanges: [5, 4, 2, 6] }];
    const page = htmlReportFor(newestFirst);
    const header = page.slice(page.indexOf('<header>'), page.indexOf('</header>'));
    const first = header.slice(header.indexOf('newest first'));
    const shown = [...first.slice(0, first.indexOf('</p>')).matchAll(/<code>#(\d+)<\/code>/g)].map((match) => Number(match[1]));
    expect(shown).toEqual([2, 4, 5]);
    expect(first).toContain('and 1 more');
  });

  it('shows evidence in one order on the first screen and in the findings: the oldest piece first, its exchanges as sent', () => {
    const outOfOrder = sampleOutcome();
    outOfOrder.rules[1]!.evidence = [
      { note: 'the later piece', exchanges: [6, 5] },
      { note: 'the earlier piece', exchanges: [4, 2] },
    ];
    const page = htmlReportFor(outOfOrder);
    const header = page.slice(page.indexOf('<header>'), page.indexOf('</header>'));
    expect(header).toContain('the earlier piece');
    expect(header).not.toContain('the later piece');
    const finding = page.slice(page.indexOf(`id="rule-${outOfOrder.rules[1]!.id}"`));
    const listed = finding.slice(finding.indexOf('<ol class="evidence">'), finding.indexOf('</ol>'));
    expect(listed.indexOf('the earlier piece')).toBeLessThan(listed.indexOf('the later piece'));
    const seqs = [...listed.matchAll(/<summary><code>#(\d+)<\/code>/g)].map((match) => Number(match[1]));
    expect(seqs).toEqual([2, 4, 5, 6]);
  });

  it('says in a collapsed exchange what it answered: the outcome of a 200, the status otherwise', () => {
    expect(html).toMatch(/→ <strong>200 in_progress<\/strong>/);
    expect(html).toMatch(/→ <strong>200 succeeded<\/strong>/);
    expect(html).toMatch(/→ <strong>404<\/strong>/);
    expect(html).toMatch(/→ <strong>502<\/strong>/);
    expect(html).toMatch(/→ <strong>no answer: timeout \(headers timeout\)<\/strong>/);
  });

  it('draws one lane per accepted operation, with a tick for every read of it, probes hollow', () => {
    const lanes = html.match(/<g class="lane"/g) ?? [];
    expect(lanes).toHaveLength(1);
    expect(html).toContain(`data-operation-id="${OP_ID}"`);
    // poll, 502, final, after-final probe, concurrent probe that timed out: the unknown id is not this operation's
    expect(html.match(/<circle class="read /g)).toHaveLength(5);
    // Colours come from the page's style, by kind: a probe is a ring with nothing inside.
    expect(html).toMatch(/<circle class="read in-progress probe"/);
    expect(html).toContain('svg.timeline .read.probe{fill:none;stroke-width:2}');
    expect(html).toMatch(/<circle class="read transient"/);
    expect(html).toMatch(/<circle class="read succeeded"/);
  });

  it('lists every rule with a filter per status present, and details every rule that did not hold', () => {
    expect(html.match(/<tr class="rule /g)).toHaveLength(outcome.rules.length);
    for (const status of ['fail', 'warn', 'advice', 'not-exercised', 'skip', 'pass']) expect(html).toContain(`id="filter-${status}"`);
    expect(html).toContain('id="rule-operation.no-in-progress-after-final"');
    expect(html).toContain('id="rule-operation.transient-errors"');
    expect(html).not.toContain('id="rule-answer.status"');
    expect(html).toContain('curl -sS -i');
  });

  it('shows a property that got no case as such, and candidates tried while shrinking apart from generated cases', () => {
    const common = { seed: 7, interrupted: true, ruleIds: [], exchanges: [], notes: [], reruns: [], message: 'm' };
    const page = htmlReportFor(
      sampleOutcome({
        properties: [
          { ...common, name: 'property/model-based-runs', status: 'passed', numRuns: 0 },
          { ...common, name: 'property/generated-plans', status: 'failed', numRuns: 30, shrinkRuns: 10, path: '1:0' },
        ],
      }),
    );
    expect(page).toContain('<span class="status not-exercised">no case</span> <code>property/model-based-runs</code>');
    expect(page).toContain('20 cases and 10 candidates tried while shrinking · seed 7');
    expect(page).toContain('<span class="status fail">failed</span> <code>property/generated-plans</code>');
    // A replay path is one long word: it wraps inside its card rather than run past the card's edge.
    expect(page).toMatch(/\.finding,\.property\{[^}]*overflow-wrap:anywhere/);
  });

  it('shows a proxy error page as its words, never as markup, and runs none of its script', () => {
    expect(html).toContain('Service Unavailable');
    expect(html).not.toContain('secretScriptMarker');
    expect(html).not.toContain('hidden-style-marker');
    expect(html).not.toContain('<h1>Service Unavailable');
  });

  it('masks secrets from request bodies, response bodies and headers', () => {
    expect(html).not.toContain("it's-s3cret");
    expect(html).not.toContain('abc123');
    expect(html).toContain('[redacted]');
  });

  it('fetches nothing: no external source, and a policy that forbids it', () => {
    expect(html).toContain(`content="default-src 'none'`);
    expect(html).not.toMatch(/\s(?:src|href)=["']?(?:https?:)?\/\//i);
    expect(html).not.toMatch(/@import|url\(/);
  });

  it('escapes provisioner text wherever it lands', () => {
    const hostile = sampleOutcome({ conclusions: ['<img src=x onerror=alert(1)>'], target: { url: 'http://127.0.0.1:1/"><script>alert(1)</script>' } });
    const page = htmlReportFor(hostile);
    expect(page).not.toContain('<img src=x');
    expect(page).not.toContain('<script>alert(1)');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(escapeHtml('a\u001b[31m<b>')).toBe('a&lt;b&gt;');
  });
});

describe('the operations timeline', () => {
  it('ends a lane when following ended and places its deadline after the 202', () => {
    const outcome = sampleOutcome();
    const timeline = buildTimeline(outcome.transcript, 1500);
    expect(timeline.lanes).toHaveLength(1);
    const lane = timeline.lanes[0]!;
    expect(lane.endReason).toBe('final');
    expect(lane.start).toBeGreaterThan(0);
    expect(lane.end).toBeGreaterThan(lane.start);
    expect(lane.deadline).toBe(lane.start + 1500);
    expect(lane.ticks.map((tick) => tick.kind)).toEqual(['in-progress', 'transient', 'succeeded', 'in-progress', 'transient']);
    expect(timeline.span).toBeGreaterThanOrEqual(lane.end);
  });

  it("labels a lane only with what happened: a deadline after the run's end is told once above the lanes, never drawn as a lane's end", () => {
    const b = new TranscriptBuilder();
    const slow = '11111111-8b4d-4e5f-9a7b-1c2d3e4f5a6b';
    const cut = '22222222-8b4d-4e5f-9a7b-1c2d3e4f5a6b';
    const first = b.post('apply', { at: 0, status: 202, body: { operationId: slow } });
    b.read(slow, { at: 10, status: 200, body: IN_PROGRESS });
    b.read(slow, { at: 990, status: 200, body: IN_PROGRESS });
    b.pollEnded(slow, first.seq, 'deadline', 1000);
    // Accepted late in the run and cut off by its end: its deadline (1.8 s) lies after the run's end.
    const second = b.post('plan', { at: 800, status: 202, body: { operationId: cut } });
    b.read(cut, { at: 810, status: 200, body: IN_PROGRESS, took: 390 });
    b.pollEnded(cut, second.seq, 'aborted', 1200);
    const timeline = buildTimeline(b.transcript, 1000);
    expect(timeline.span).toBe(1200);
    const lane = timeline.lanes.find((candidate) => candidate.operationId === cut)!;
    expect(lane).toMatchObject({ start: 805, end: 1200, endReason: 'aborted', deadline: 1805 });

    const page = timelineHtml(timeline, new Map());
    // The only deadline inside the run is drawn where it falls; nothing at a lane's end names a later time.
    expect(page.match(/<line class="deadline"/g)).toHaveLength(1);
    expect(page).not.toContain('→');
    expect(page).toContain(`The deadlines of 1 of the 2 operations (maxOperationDuration after each 202) fall after the end of the timeline at 1.2 s: not drawn.`);
    const cutLane = page.slice(page.indexOf(`data-operation-id="${cut}"`));
    expect(cutLane.slice(0, cutLane.indexOf('</title>'))).toContain(
      `accepted at 0.8 s, the kit stopped following it at 1.2 s, before it ended; deadline at 1.8 s, after the end of the timeline`,
    );
    const slowLane = page.slice(page.indexOf(`data-operation-id="${slow}"`));
    expect(slowLane.slice(0, slowLane.indexOf('</title>'))).toContain('accepted at 0.0 s, its deadline passed at 1.0 s with no final answer; deadline at 1.0 s');
  });

  it("draws a probe as a ring over the poll sent with it, so neither hides the other", () => {
    const b = new TranscriptBuilder();
    const accepted = b.post('apply', { at: 0, status: 202, body: { operationId: OP_ID } });
    b.read(OP_ID, { at: 10, status: 200, body: IN_PROGRESS });
    b.read(OP_ID, { at: 10, status: 200, body: IN_PROGRESS, tag: 'read-concurrent' });
    b.read(OP_ID, { at: 500, status: 200, body: shopDbFinal() });
    b.pollEnded(OP_ID, accepted.seq, 'final', 505);
    const circles = [...timelineHtml(buildTimeline(b.transcript, 60_000), new Map()).matchAll(/<circle class="read ([a-z -]+)"/g)].map((match) => match[1]);
    expect(circles).toEqual(['in-progress', 'succeeded', 'in-progress probe']);
    expect(TIMELINE_STYLE).toContain('svg.timeline .read.probe{fill:none;');
  });

  it('names in its legend the colour of each way following can end, as the page colours the lane bars', () => {
    const legend = timelineLegend();
    for (const [end, name] of [
      ['final', 'followed to a final answer'],
      ['lost', 'lost (404)'],
      ['unexpected', 'ended on an answer the contract does not allow'],
      ['deadline', 'deadline passed'],
      ['aborted', 'following stopped by the kit, or no end recorded'],
    ]) {
      const colour = new RegExp(`rect\\.span\\.${end}\\{fill:(#[0-9a-f]{6})\\}`).exec(TIMELINE_STYLE)?.[1];
      expect(colour).toBeDefined();
      expect(legend).toContain(`fill="${colour}"/></svg> ${name}</li>`);
    }
  });

  it('draws no lane when nothing was accepted', () => {
    const outcome = sampleOutcome();
    const html = htmlReportFor({ ...outcome, transcript: new Transcript() });
    expect(html).not.toContain('<g class="lane"');
    expect(html).toContain('accepted no operation');
  });
});

describe('the timeline of a run with a restart', () => {
  it('shades the restart, from its start to its end, with what restarted the provisioner', () => {
    const outcome = sampleOutcome();
    const start = outcome.transcript.exchanges[0]!.sentAt;
    outcome.transcript.note({ type: 'restart-started', at: start + 500, describe: 'restart command: systemctl restart p' });
    outcome.transcript.note({ type: 'restart-ended', at: start + 1500, ok: true, message: 'done' });
    const timeline = buildTimeline(outcome.transcript, 60_000);
    expect(timeline.disturbances).toEqual([{ label: 'restart: restart command: systemctl restart p (done)', from: 500, to: 1500 }]);
    expect(htmlReportFor(outcome)).toMatch(/<rect class="disturbance"[^>]*><title>restart: restart command: systemctl restart p \(done\)<\/title>/);
  });
});

describe('the HTML report of a failing run at full size', () => {
  const outcome = bigFailingOutcome();
  const html = htmlReportFor(outcome);
  const rule = outcome.rules.find((candidate) => candidate.id === 'operation.no-in-progress-after-final')!;

  it('stays under 600 KB with 484 operations and 434 cases of one failed rule', () => {
    expect(outcome.transcript.exchanges.length).toBeGreaterThan(4000);
    expect(rule.evidence).toHaveLength(434);
    expect(Buffer.byteLength(html)).toBeLessThan(600 * 1024);
  });

  it('shows five cases of the failed rule and says how many more the JSON report holds', () => {
    const finding = html.slice(html.indexOf('id="rule-operation.no-in-progress-after-final"'));
    const article = finding.slice(0, finding.indexOf('</article>'));
    expect(article.match(/<li><p>/g)).toHaveLength(5);
    expect(article).toContain('and 429 more cases, not shown here: the JSON report (<code>--report</code>) lists all 434.');
  });

  it('groups lanes by suite, suites with a finding first, marks lanes with a finding and folds the rest', () => {
    expect(html.match(/<g class="lane"/g)).toHaveLength(484);
    const suites = [...html.matchAll(/<div class="suite-lanes" data-suite="([^"]+)"/g)].map((match) => match[1]);
    expect(suites).toEqual([
      'scenario/plan-and-apply',
      'property/generated-plans',
      'property/model-based-runs-with-a-long-name-that-runs-into-the-reads',
      'scenario/burst',
    ]);
    expect(html.match(/<g class="lane"[^>]* data-finding="operation\.no-in-progress-after-final">/g)).toHaveLength(434);
    // Ten lanes with a finding drawn read by read per suite; the rest folded, opened without script.
    expect(html.match(/<circle class="read /g)).toHaveLength(30 * 9);
    expect(html).toContain('<summary>190 more operations with something to show</summary>');
    expect(html).toContain('<summary>50 operations with nothing to show: polled to a final answer, no finding</summary>');
    expect(html).not.toContain('<details class="lanes" open');
    // Folded lanes draw their reads as dots, one path per kind of answer; a probe's dot has a hole, as its circle is hollow.
    expect(html).toMatch(/<path class="reads in-progress probe" d="M[\d.]+ [\d.]+h0"\/><path class="reads hole" d="M[\d.]+ [\d.]+h0"\/>/);
    expect(html).toMatch(/<path class="reads succeeded" d="M[\d.]+ [\d.]+h0"\/>/);
    const burst = html.slice(html.indexOf('data-suite="scenario/burst"'));
    expect(burst).toContain('<h3>scenario/burst <span class="muted">· 50 operations</span></h3>');
  });

  it("labels a property's lanes by their case, so that lanes of one property tell apart", () => {
    const lane = { operationId: '9e23502a-6f70-4a87-a5a7-26c2f439d983', kind: 'plan' as const, start: 0, end: 1, endReason: 'final' as const, deadline: 2, ticks: [] };
    // A generated change set is named after its case: the case number is said once.
    const generated = [1, 2, 12].map((n) => laneLabel({ ...lane, suite: `property/generated-plans#1.${n}`, changeSet: `property/generated-plans#1.${n}` }));
    expect(generated).toEqual(['#1.1 plan 9e23502a', '#1.2 plan 9e23502a', '#1.12 plan 9e23502a']);
    // A case's calls of a named change set: the case number first, the name cut in its middle to the room left.
    const modelled = laneLabel({ ...lane, suite: 'property/model-based-runs#1.14', changeSet: 'kubernetes-namespace' });
    expect(modelled).toBe('#1.14 plan kubern…space 9e23502a');
    expect([...modelled].length).toBeLessThanOrEqual(32);
    expect(laneLabel({ ...lane, suite: 'scenario/plan-and-apply', changeSet: 'postgres' })).toBe('plan postgres 9e23502a');
  });

  it('cuts lane labels to their column, so they never reach the first reads', () => {
    const labels = [...html.matchAll(/<text class="lane-label" x="6" y="[\d.]+">([^<]*)<\/text>/g)].map((match) => match[1]!);
    expect(labels).toHaveLength(484);
    expect(Math.max(...labels.map((label) => [...label].length))).toBeLessThanOrEqual(32);
    const firstX = Math.min(...[...html.matchAll(/<rect class="span [a-z]+" x="([\d.]+)"/g)].map((match) => Number(match[1])));
    // 32 characters of an 11px monospace font from x=6 end before 6 + 32 × 6.7 = 220.4; reads start after.
    expect(firstX).toBeGreaterThanOrEqual(236);
  });

  it('draws a small run whole, as before: no lane folded away', () => {
    const small = htmlReportFor(sampleOutcome());
    expect(small).not.toContain('<details class="lanes');
    expect(small.match(/<g class="lane"[^>]* data-finding="operation\.no-in-progress-after-final operation\.transient-errors">/g)).toHaveLength(1);
  });
});

describe('the HTML report written to a file', () => {
  it('is written piece by piece, each piece masked, to the same text as the page masked whole', async () => {
    const outcome = bigFailingOutcome();
    // A secret in a lane's title and in the findings: the operation id of the first lane, and the rule's sentence.
    const firstLane = outcome.transcript.exchanges.find((exchange) => exchange.operationId !== undefined)!.operationId!;
    const mask = new SecretMask().add(firstLane).add('a final answer');
    const dir = await mkdtemp(join(tmpdir(), 'pc-html-'));
    try {
      const path = join(dir, 'page', 'report.html');
      await writeHtmlReport(path, outcome, mask);
      const written = await readFile(path, 'utf8');
      expect(written).toBe(htmlReportText(outcome, mask));
      expect(written).not.toContain(firstLane);
      expect(written).not.toContain('a final answer');
      expect(written).toContain('[redacted]');
      expect(htmlReportFor(outcome)).toContain(firstLane);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
