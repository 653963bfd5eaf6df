import { plural } from '../../core/text.js';
import { escapeHtml as e } from './escape.js';
import type { LaneEnd, TickKind, Timeline, TimelineLane, TimelineTick } from './timeline.js';

const WIDTH = 1000;
const LABEL_WIDTH = 230;
// Room between the longest label and the first tick, so that a read at the start never covers a label.
const LABEL_GAP = 10;
// A monospace character of the 11px label font is about 6.6px wide: this many fit the label column.
const LABEL_CHARS = 32;
const RIGHT_MARGIN = 70;
const LANE_HEIGHT = 20;
const AXIS_HEIGHT = 20;
// Lanes drawn read by read, each with its tooltip, per suite; the rest of a suite's lanes are folded.
const SHOWN_PER_SUITE = 10;
// A run with no more operations than this has its timeline drawn whole, as a small run always was.
const SMALL_RUN = 40;

export const TICK_COLOURS: Record<TickKind, string> = {
  'in-progress': '#3b82f6',
  succeeded: '#16a34a',
  failed: '#dc2626',
  'not-found': '#9333ea',
  transient: '#d97706',
  other: '#111827',
};

export const TICK_NAMES: Record<TickKind, string> = {
  'in-progress': 'in_progress',
  succeeded: 'succeeded',
  failed: 'failed',
  'not-found': '404',
  transient: '5xx or no answer',
  other: 'other answer',
};

const END_COLOURS: Record<LaneEnd, string> = {
  final: '#bbf7d0',
  lost: '#e9d5ff',
  unexpected: '#fed7aa',
  deadline: '#fecaca',
  aborted: '#e5e7eb',
  open: '#e5e7eb',
};

/** The legend's name for each colour of a lane's bar; `open` is drawn in the grey of `aborted` and named with it. */
const LANE_END_NAMES: ReadonlyArray<readonly [LaneEnd, string]> = [
  ['final', 'followed to a final answer'],
  ['lost', 'lost (404)'],
  ['unexpected', 'ended on an answer the contract does not allow'],
  ['deadline', 'deadline passed'],
  ['aborted', 'following stopped by the kit, or no end recorded'],
];

/** The timeline's colours as CSS: each read and lane names its kind and the page colours it once. */
export const TIMELINE_STYLE = [
  ...Object.entries(TICK_COLOURS).map(([kind, colour]) => `svg.timeline .read.${kind}{fill:${colour};stroke:${colour}}svg.timeline path.${kind}{stroke:${colour}}`),
  ...Object.entries(END_COLOURS).map(([end, colour]) => `svg.timeline rect.span.${end}{fill:${colour}}`),
  'svg.timeline .read{stroke-width:1.5}svg.timeline .read.probe{fill:none;stroke-width:2}',
  'svg.timeline path.reads{stroke-width:7;stroke-linecap:round;fill:none}svg.timeline path.reads.hole{stroke:#fff;stroke-width:4}',
  'svg.timeline line.grid{stroke:#e5e7eb}svg.timeline line.deadline{stroke:#b91c1c;stroke-width:2}svg.timeline rect.mark{fill:#dc2626}',
  'svg.timeline g[data-finding] text.lane-label{fill:#991b1b;font-weight:600}',
  'details.lanes>summary{cursor:pointer;padding:.25rem .5rem;font-size:.85rem;color:#374151;border-top:1px solid #f3f4f6}',
  '.suite-lanes>h3{font-size:.85rem;margin:0;padding:.35rem .5rem;border-top:1px solid #e5e7eb;background:#f9fafb}',
  '.suite-lanes>h3 .findings{color:#991b1b}',
].join('\n');

/** A step of 1, 2 or 5 times a power of ten that puts about six ticks on the axis. */
function axisStep(span: number): number {
  const rough = Math.max(span, 1) / 6;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((candidate) => candidate >= rough);
  return step ?? 10 * power;
}

function seconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(s < 10 ? 1 : 0)} s`;
}

/**
 * The lane's label, cut to its column: a label never runs into the reads. What tells lanes of one suite apart
 * comes first and is never cut: a property case's number (its suite is the group's heading, so the case of
 * `property/model-based-runs#1.4` is shown as `#1.4`), the call and the start of the operation id; the change
 * set's name, when it says more than the case number, is cut in its middle to the room left.
 */
export function laneLabel(lane: TimelineLane): string {
  const group = lane.suite.replace(/#.*$/, '');
  const caseNumber = lane.suite.slice(group.length);
  const named = lane.changeSet === undefined ? '' : lane.changeSet.startsWith(`${group}#`) ? lane.changeSet.slice(group.length) : lane.changeSet;
  const changeSet = named === caseNumber ? '' : named.replace(/\s+/g, ' ');
  const head = caseNumber === '' ? lane.kind : `${caseNumber} ${lane.kind}`;
  const id = lane.operationId.slice(0, 8);
  const room = Math.max(3, LABEL_CHARS - [...head].length - id.length - 2);
  const chars = [...changeSet];
  const name = chars.length <= room ? changeSet : `${chars.slice(0, Math.ceil((room - 1) / 2)).join('')}…${chars.slice(chars.length - Math.floor((room - 1) / 2)).join('')}`;
  return `${head} ${name} ${id}`.replace(/\s+/g, ' ');
}

/** Where a moment of the run falls, in the timeline's coordinates. */
interface Scale {
  span: number;
  x(ms: number): number;
}

function scaleOf(timeline: Timeline): Scale {
  const span = Math.max(timeline.span, ...timeline.lanes.map((lane) => lane.end), 1);
  const left = LABEL_WIDTH + LABEL_GAP;
  const plot = WIDTH - left - RIGHT_MARGIN;
  return { span, x: (ms) => Math.round((left + (Math.min(ms, span) / span) * plot) * 10) / 10 };
}

function axisSvg(scale: Scale): string {
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" class="timeline axis" viewBox="0 0 ${WIDTH} ${AXIS_HEIGHT}" width="${WIDTH}" height="${AXIS_HEIGHT}" aria-hidden="true">`];
  const step = axisStep(scale.span);
  for (let at = 0; at <= scale.span; at += step) parts.push(`<text class="axis" x="${scale.x(at)}" y="14" text-anchor="middle">${e(seconds(at))}</text>`);
  parts.push('</svg>');
  return parts.join('');
}

/** What the timeline knows of each operation beyond its reads: the rules its exchanges are evidence for. */
export type LaneFindings = ReadonlyMap<string, readonly string[]>;

/** How following an operation ended, in words, at `at`: the tooltip names what happened, never a planned time. */
const END_WORDS: Record<LaneEnd, (at: string) => string> = {
  final: (at) => `final answer at ${at}`,
  lost: (at) => `lost at ${at}: a read answered 404`,
  unexpected: (at) => `following stopped at ${at} on an answer the contract does not allow`,
  deadline: (at) => `its deadline passed at ${at} with no final answer`,
  aborted: (at) => `the kit stopped following it at ${at}, before it ended`,
  open: (at) => `last read at ${at}, no end of following recorded`,
};

/** A moment of the run to a tenth of a second, for tooltips and notes. */
function preciseSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function laneTitle(lane: TimelineLane, scale: Scale, findings: readonly string[] | undefined): string {
  const deadline = `deadline at ${preciseSeconds(lane.deadline)}${lane.deadline > scale.span ? ", after the end of the timeline" : ''}`;
  const when = `accepted at ${preciseSeconds(lane.start)}, ${END_WORDS[lane.endReason](preciseSeconds(lane.end))}; ${deadline}`;
  const what = `${lane.kind} of ${lane.changeSet ?? 'a change set'}, operation ${lane.operationId} (${lane.suite}): ${when}`;
  return findings === undefined ? what : `${what}; evidence for ${findings.join(', ')}`;
}

/** The lane's deadline as a line where it falls in the run; one after the run's end is not drawn (its tooltip and the note above the lanes say so). */
function deadlineMark(lane: TimelineLane, scale: Scale, y: number): string {
  if (lane.deadline > scale.span) return '';
  return `<line class="deadline" x1="${scale.x(lane.deadline)}" y1="${y + 2}" x2="${scale.x(lane.deadline)}" y2="${y + LANE_HEIGHT - 2}"><title>deadline: ${e(seconds(lane.deadline))}</title></line>`;
}

/** One sentence for the deadlines that fall after the run's end, which no lane draws; empty when every deadline is drawn. */
function deadlinesNote(timeline: Timeline, scale: Scale): string {
  const later = timeline.lanes.filter((lane) => lane.deadline > scale.span).length;
  if (later === 0) return '';
  const whose =
    later === timeline.lanes.length
      ? later === 1
        ? 'The deadline of the operation (maxOperationDuration after its 202) falls'
        : `The deadlines of all ${later} operations (maxOperationDuration after each 202) fall`
      : `The deadlines of ${later} of the ${timeline.lanes.length} operations (maxOperationDuration after each 202) fall`;
  return `<p class="deadlines-note muted">${whose} after the end of the timeline at ${e(preciseSeconds(scale.span))}: not drawn.</p>`;
}

/**
 * The reads in drawing order: probes last, as rings with nothing inside, so that a probe sent with a poll, or
 * a moment after it (a read after the final answer), shows around the control plane's read rather than hide
 * it, and the poll never hides the probe. A stable sort: each kind keeps its order in time.
 */
function probesLast(ticks: readonly TimelineTick[]): TimelineTick[] {
  return [...ticks].sort((a, b) => Number(a.probe) - Number(b.probe));
}

/** Every read as its own circle with a tooltip: for the lanes a reader looks at. */
function readCircles(lane: TimelineLane, scale: Scale, mid: number): string {
  return probesLast(lane.ticks)
    .map((tick) => `<circle class="read ${tick.kind}${tick.probe ? ' probe' : ''}" cx="${scale.x(tick.at)}" cy="${mid}" r="3.5"><title>${e(tick.label)}</title></circle>`)
    .join('');
}

/**
 * The reads as one dotted path per kind of answer (a probe's dot with a white hole, as its circle is hollow),
 * their counts in the lane's tooltip: for folded lanes, a fraction of the size.
 */
function readDots(lane: TimelineLane, scale: Scale, mid: number): string {
  const paths = new Map<string, number[]>();
  for (const tick of lane.ticks) {
    const key = `${tick.kind}${tick.probe ? ' probe' : ''}`;
    const xs = paths.get(key);
    if (xs) xs.push(scale.x(tick.at));
    else paths.set(key, [scale.x(tick.at)]);
  }
  return [...paths]
    .map(([key, xs]) => {
      const d = xs.map((x) => `M${x} ${mid}h0`).join('');
      return `<path class="reads ${key}" d="${d}"/>${key.endsWith(' probe') ? `<path class="reads hole" d="${d}"/>` : ''}`;
    })
    .join('');
}

function readCounts(lane: TimelineLane): string {
  const counts = new Map<TickKind, number>();
  for (const tick of lane.ticks) counts.set(tick.kind, (counts.get(tick.kind) ?? 0) + 1);
  return [...counts].map(([kind, n]) => `${n} ${TICK_NAMES[kind]}`).join(', ');
}

/** One SVG of lanes, all on the run's time scale: read by read, or as dots when `folded`. */
function lanesSvg(lanes: readonly TimelineLane[], timeline: Timeline, scale: Scale, findings: LaneFindings, folded: boolean): string {
  const height = lanes.length * LANE_HEIGHT + 4;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="timeline" role="img" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" aria-label="${plural(lanes.length, 'operation')}">`,
  ];
  const step = axisStep(scale.span);
  for (let at = 0; at <= scale.span; at += step) parts.push(`<line class="grid" x1="${scale.x(at)}" y1="0" x2="${scale.x(at)}" y2="${height}"/>`);
  for (const disturbance of timeline.disturbances) {
    parts.push(
      `<rect class="disturbance" x="${scale.x(disturbance.from)}" y="0" width="${Math.max(1, scale.x(disturbance.to) - scale.x(disturbance.from))}" height="${height}" fill="#fde68a" fill-opacity="0.5"><title>${e(disturbance.label)}</title></rect>`,
    );
  }
  lanes.forEach((lane, index) => {
    const y = index * LANE_HEIGHT + 2;
    const mid = y + LANE_HEIGHT / 2;
    const found = findings.get(lane.operationId);
    const title = folded ? `${laneTitle(lane, scale, found)} · reads: ${readCounts(lane) || 'none'}` : laneTitle(lane, scale, found);
    parts.push(`<g class="lane" data-operation-id="${e(lane.operationId)}" data-end="${lane.endReason}"${found ? ` data-finding="${e(found.join(' '))}"` : ''}>`);
    parts.push(`<title>${e(title)}</title>`);
    if (found) parts.push(`<rect class="mark" x="0" y="${y + 2}" width="3" height="${LANE_HEIGHT - 4}"/>`);
    parts.push(`<text class="lane-label" x="6" y="${mid + 4}">${e(laneLabel(lane))}</text>`);
    parts.push(`<rect class="span ${lane.endReason}" x="${scale.x(lane.start)}" y="${y + 5}" width="${Math.max(2, scale.x(lane.end) - scale.x(lane.start))}" height="${LANE_HEIGHT - 10}" rx="3"/>`);
    parts.push(deadlineMark(lane, scale, y));
    parts.push(folded ? readDots(lane, scale, mid) : readCircles(lane, scale, mid));
    parts.push('</g>');
  });
  parts.push('</svg>');
  return parts.join('');
}

/** A lane is worth showing when it is evidence for a rule, or did not end with a final answer, or got an odd answer. */
function notable(lane: TimelineLane, findings: LaneFindings): number {
  if (findings.has(lane.operationId)) return 2;
  const odd = lane.endReason !== 'final' || lane.ticks.some((tick) => tick.kind === 'transient' || tick.kind === 'not-found' || tick.kind === 'other');
  return odd ? 1 : 0;
}

interface SuiteLanes {
  suite: string;
  lanes: TimelineLane[];
  findings: number;
}

/** The lanes by suite: suites with a finding first, then in the order they began; in each, lanes with a finding first. */
function bySuite(timeline: Timeline, findings: LaneFindings): SuiteLanes[] {
  const groups = new Map<string, TimelineLane[]>();
  for (const lane of timeline.lanes) {
    // A property's cases are suites of their own (`property/x#3.1`): their lanes go with the property's.
    const suite = lane.suite.replace(/#.*$/, '');
    const group = groups.get(suite);
    if (group) group.push(lane);
    else groups.set(suite, [lane]);
  }
  const suites = [...groups].map(([suite, lanes]) => ({
    suite,
    // A stable sort: within the same weight, lanes keep the order their operations were accepted in.
    lanes: [...lanes].sort((a, b) => notable(b, findings) - notable(a, findings)),
    findings: lanes.filter((lane) => findings.has(lane.operationId)).length,
  }));
  return suites.sort((a, b) => Number(b.findings > 0) - Number(a.findings > 0));
}

function suiteBlock(group: SuiteLanes, timeline: Timeline, scale: Scale, findings: LaneFindings, whole: boolean): string {
  const shown = whole ? group.lanes : group.lanes.filter((lane) => notable(lane, findings) > 0);
  const open = shown.slice(0, whole ? shown.length : SHOWN_PER_SUITE);
  const more = shown.slice(open.length);
  const quiet = whole ? [] : group.lanes.filter((lane) => notable(lane, findings) === 0);
  const heading = `${e(group.suite)} <span class="muted">· ${plural(group.lanes.length, 'operation')}</span>${group.findings > 0 ? ` <span class="findings">· ${group.findings} with a finding</span>` : ''}`;
  return [
    `<div class="suite-lanes" data-suite="${e(group.suite)}"><h3>${heading}</h3>`,
    open.length > 0 ? lanesSvg(open, timeline, scale, findings, false) : '',
    more.length > 0 ? `<details class="lanes"><summary>${plural(more.length, 'more operation')} with something to show</summary>${lanesSvg(more, timeline, scale, findings, true)}</details>` : '',
    quiet.length > 0 ? `<details class="lanes quiet"><summary>${plural(quiet.length, 'operation')} with nothing to show: polled to a final answer, no finding</summary>${lanesSvg(quiet, timeline, scale, findings, true)}</details>` : '',
    '</div>',
  ].join('');
}

/**
 * The operations timeline: lanes grouped by suite on one time scale, each from its 202 to its end, a mark
 * for every read coloured by what it answered (probes hollow), each deadline where it falls in the run, and
 * the periods when the kit disturbed the provisioner shaded. Lanes with a finding are marked and come first;
 * in a big run the others fold into a row per suite, opened without script.
 */
export function timelineHtml(timeline: Timeline, findings: LaneFindings): string {
  return [...timelineHtmlPieces(timeline, findings)].join('');
}

/** {@link timelineHtml} in pieces, one suite's lanes each, made as they are asked for: each piece holds whole elements. */
export function* timelineHtmlPieces(timeline: Timeline, findings: LaneFindings): Generator<string> {
  const scale = scaleOf(timeline);
  const whole = timeline.lanes.length <= SMALL_RUN;
  yield `${deadlinesNote(timeline, scale)}<div class="timeline-scroll">${axisSvg(scale)}`;
  for (const group of bySuite(timeline, findings)) yield suiteBlock(group, timeline, scale, findings, whole);
  yield '</div>';
}

/** The key to the colours and marks of the timeline. */
export function timelineLegend(): string {
  const kinds = Object.keys(TICK_COLOURS) as TickKind[];
  const items = kinds.map(
    (kind) => `<li><svg width="12" height="12" aria-hidden="true"><circle cx="6" cy="6" r="4" fill="${TICK_COLOURS[kind]}"/></svg> ${e(TICK_NAMES[kind])}</li>`,
  );
  items.push('<li><svg width="12" height="12" aria-hidden="true"><circle cx="6" cy="6" r="4" fill="#fff" stroke="#111827" stroke-width="1.5"/></svg> probe (a read the control plane would not make)</li>');
  // The bar runs from the 202 to the end of following; its colour says how following ended.
  for (const [end, name] of LANE_END_NAMES) {
    items.push(`<li><svg width="16" height="12" aria-hidden="true"><rect y="2" width="16" height="8" rx="3" fill="${END_COLOURS[end]}"/></svg> ${e(name)}</li>`);
  }
  items.push('<li><svg width="12" height="12" aria-hidden="true"><line x1="6" y1="0" x2="6" y2="12" stroke="#b91c1c" stroke-width="2"/></svg> deadline (maxOperationDuration after the 202)</li>');
  items.push('<li><svg width="12" height="12" aria-hidden="true"><rect width="12" height="12" fill="#fde68a"/></svg> the kit disturbed the provisioner (restart)</li>');
  items.push('<li><svg width="12" height="12" aria-hidden="true"><rect x="4" width="4" height="12" fill="#dc2626"/></svg> evidence for a rule that did not hold</li>');
  return `<ul class="legend">${items.join('')}</ul>`;
}
