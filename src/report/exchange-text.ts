import { formatMs } from '../core/duration.js';
import type { Exchange, ExchangeTag, Millis } from '../transcript/exchange.js';
import { redactBodyText, redactHeaders } from '../core/redact.js';
import { singleLine } from './safe-text.js';
import type { Style } from './style.js';
import { upstreamText } from './upstream-text.js';

export interface ExchangeTextOptions {
  /** The run's start: times are shown relative to it. */
  startedAt: Millis;
  showSecrets: boolean;
  style: Style;
  /** Most characters of body to show. */
  bodyLimit?: number;
  /** Put before every line. */
  indent?: string;
}

export const CONSOLE_BODY_LIMIT = 600;

// Headers that explain an answer: its type, when to come back, where it points, and who really sent it (a proxy?).
const SHOWN_HEADERS = ['content-type', 'content-encoding', 'retry-after', 'location', 'server', 'via'];

const PROBE_LABELS: Record<ExchangeTag, string> = {
  plan: 'probe: plan',
  apply: 'probe: apply',
  poll: 'probe: read',
  'read-concurrent': 'probe: concurrent read',
  'read-after-final': 'probe: read after final',
  'read-unknown': 'probe: read of an unknown id',
  'read-malformed': 'probe: read of a malformed id',
  'malformed-json': 'probe: malformed JSON',
  'invalid-change-set': 'probe: invalid change set',
};

export function relativeTime(at: Millis, startedAt: Millis): string {
  const seconds = (at - startedAt) / 1000;
  return `${seconds < 0 ? '-' : '+'}${Math.abs(seconds).toFixed(3)}s`;
}

function statusText(status: number, style: Style): string {
  const text = String(status);
  if (status >= 500) return style.red(text);
  if (status >= 400) return style.yellow(text);
  if (status >= 200 && status < 300) return style.green(text);
  return text;
}

function headline(exchange: Exchange, options: ExchangeTextOptions): string {
  const { style } = options;
  const took = formatMs(exchange.endedAt - exchange.sentAt);
  const request = `${exchange.request.method} ${singleLine(exchange.request.url)}`;
  const answer = exchange.response
    ? `→ ${statusText(exchange.response.status, style)} (${took})`
    : style.red(`✗ ${exchange.error?.kind ?? 'no answer'} after ${took}`);
  const extras = [exchange.changeSet, exchange.probe ? PROBE_LABELS[exchange.tag] : undefined].filter((x) => x !== undefined);
  const tail = extras.length > 0 ? `  ${style.dim(extras.map((x) => singleLine(x)).join(' · '))}` : '';
  return `${style.bold(`#${exchange.seq}`)}  ${relativeTime(exchange.sentAt, options.startedAt)}  ${request}  ${answer}${tail}`;
}

function bodyLines(exchange: Exchange, options: ExchangeTextOptions): string[] {
  const response = exchange.response;
  if (!response) return [];
  if (response.body === '') return [options.style.dim('(empty body)')];
  const body = options.showSecrets ? response.body : redactBodyText(response.body, response.json);
  const lines = upstreamText(body, response.headers['content-type'], options.bodyLimit ?? CONSOLE_BODY_LIMIT).split('\n');
  if (response.truncated) {
    lines.push(options.style.dim(`(the kit kept only the first ${response.bodyBytes.toLocaleString('en-US')} bytes of this body)`));
  } else if (response.elided) {
    lines.push(options.style.dim(`(a body of ${response.bodyBytes.toLocaleString('en-US')} bytes: only its head and tail are shown)`));
  }
  return lines;
}

/** One exchange for the console: the request and its answer on one line, then the headers that matter and the body or error. */
export function renderExchange(exchange: Exchange, options: ExchangeTextOptions): string {
  const { style } = options;
  const indent = options.indent ?? '';
  const details: string[] = [];
  if (exchange.response) {
    const headers = options.showSecrets ? exchange.response.headers : redactHeaders(exchange.response.headers);
    for (const name of SHOWN_HEADERS) {
      const value = headers[name];
      if (value !== undefined) details.push(style.dim(`${name}: ${singleLine(value)}`));
    }
    details.push(...bodyLines(exchange, options));
  } else if (exchange.error && exchange.error.message.trim() !== '') {
    details.push(style.dim(singleLine(exchange.error.message)));
  }
  const lines = [headline(exchange, options), ...details.map((line) => (line === '' ? '' : `    ${line}`))];
  return lines.map((line) => (line === '' ? '' : indent + line)).join('\n');
}
