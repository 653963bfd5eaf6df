import { escapeHtml as e } from './escape.js';
import type { LaneEnd, TickKind, Timeline, TimelineLane } from './timeline.js';

const WIDTH = 1000;
const LABEL_WIDTH = 230;
const RIGHT_MARGIN = 70;
const LANE_HEIGHT = 20;
const AXIS_HEIGHT = 26;

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

function laneLabel(lane: TimelineLane): string {
  return `${lane.kind} ${lane.changeSet ?? ''} ${lane.operationId.slice(0, 8)}`.replace(/\s+/g, ' ');
}

/**
 * The operations timeline as inline SVG: one lane per operation from its 202 to its end, a tick for every
 * read coloured by what it answered (probes hollow), each deadline drawn where it falls in the run, and
 * the periods when the kit disturbed the provisioner shaded.
 */
export function timelineSvg(timeline: Timeline): string {
  const span = Math.max(timeline.span, ...timeline.lanes.map((lane) => lane.end), 1);
  const plot = WIDTH - LABEL_WIDTH - RIGHT_MARGIN;
  const x = (ms: number): number => Math.round((LABEL_WIDTH + (Math.min(ms, span) / span) * plot) * 10) / 10;
  const height = AXIS_HEIGHT + timeline.lanes.length * LANE_HEIGHT + 8;
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="timeline" role="img" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" aria-label="Operations timeline: ${timeline.lanes.length} operations">`,
  );
  const step = axisStep(span);
  for (let at = 0; at <= span; at += step) {
    parts.push(`<line class="grid" x1="${x(at)}" y1="${AXIS_HEIGHT - 6}" x2="${x(at)}" y2="${height}" stroke="#e5e7eb"/>`);
    parts.push(`<text class="axis" x="${x(at)}" y="14" text-anchor="middle">${e(seconds(at))}</text>`);
  }
  for (const disturbance of timeline.disturbances) {
    parts.push(
      `<rect class="disturbance" x="${x(disturbance.from)}" y="${AXIS_HEIGHT - 6}" width="${Math.max(1, x(disturbance.to) - x(disturbance.from))}" height="${height - AXIS_HEIGHT + 6}" fill="#fde68a" fill-opacity="0.5"><title>${e(disturbance.label)}</title></rect>`,
    );
  }
  timeline.lanes.forEach((lane, index) => {
    const y = AXIS_HEIGHT + index * LANE_HEIGHT;
    const mid = y + LANE_HEIGHT / 2;
    parts.push(`<g class="lane" data-operation-id="${e(lane.operationId)}" data-end="${lane.endReason}">`);
    parts.push(`<title>${e(`${lane.kind} of ${lane.changeSet ?? 'a change set'}, operation ${lane.operationId} (${lane.suite}): ${lane.endReason}`)}</title>`);
    parts.push(`<text class="lane-label" x="4" y="${mid + 4}">${e(laneLabel(lane))}</text>`);
    parts.push(
      `<rect x="${x(lane.start)}" y="${y + 5}" width="${Math.max(2, x(lane.end) - x(lane.start))}" height="${LANE_HEIGHT - 10}" rx="3" fill="${END_COLOURS[lane.endReason]}"/>`,
    );
    if (lane.deadline <= span) {
      parts.push(`<line class="deadline" x1="${x(lane.deadline)}" y1="${y + 2}" x2="${x(lane.deadline)}" y2="${y + LANE_HEIGHT - 2}" stroke="#b91c1c" stroke-width="2"><title>deadline: ${e(seconds(lane.deadline))}</title></line>`);
    } else {
      parts.push(`<text class="deadline-later" x="${WIDTH - RIGHT_MARGIN + 4}" y="${mid + 4}"><title>deadline: ${e(seconds(lane.deadline))}</title>→ ${e(seconds(lane.deadline))}</text>`);
    }
    for (const tick of lane.ticks) {
      const colour = TICK_COLOURS[tick.kind];
      const fill = tick.probe ? 'fill="#ffffff"' : `fill="${colour}"`;
      parts.push(`<circle class="read ${tick.kind}${tick.probe ? ' probe' : ''}" cx="${x(tick.at)}" cy="${mid}" r="3.5" ${fill} stroke="${colour}" stroke-width="1.5"><title>${e(tick.label)}</title></circle>`);
    }
    parts.push('</g>');
  });
  parts.push('</svg>');
  return parts.join('');
}

/** The key to the colours and marks of the timeline. */
export function timelineLegend(): string {
  const kinds = Object.keys(TICK_COLOURS) as TickKind[];
  const items = kinds.map(
    (kind) => `<li><svg width="12" height="12" aria-hidden="true"><circle cx="6" cy="6" r="4" fill="${TICK_COLOURS[kind]}"/></svg> ${e(TICK_NAMES[kind])}</li>`,
  );
  items.push('<li><svg width="12" height="12" aria-hidden="true"><circle cx="6" cy="6" r="4" fill="#fff" stroke="#111827" stroke-width="1.5"/></svg> probe (a read the control plane would not make)</li>');
  items.push('<li><svg width="12" height="12" aria-hidden="true"><line x1="6" y1="0" x2="6" y2="12" stroke="#b91c1c" stroke-width="2"/></svg> deadline (maxOperationDuration after the 202)</li>');
  items.push('<li><svg width="12" height="12" aria-hidden="true"><rect width="12" height="12" fill="#fde68a"/></svg> the kit disturbed the provisioner (restart)</li>');
  return `<ul class="legend">${items.join('')}</ul>`;
}
