import { formatMs } from '../../core/duration.js';
import type { Exchange } from '../../transcript/exchange.js';
import type { ProxyAnswer } from '../../transcript/proxy-answer.js';
import { proxyAnswer } from '../../transcript/proxy-answer.js';
import type { Transcript } from '../../transcript/transcript.js';
import { submissions } from '../../transcript/views.js';

/**
 * Who answered, in the rules' words: a status a proxy gave in the provisioner's place is said to be the
 * proxy's, so that a reader looks at the proxy's timeout or upstream, not at the provisioner's code.
 * Which answers are a proxy's is src/transcript/proxy-answer.ts's criterion.
 */

/** The proxy that gave this exchange's answer, or undefined when the provisioner did (or nothing came back). */
export function proxyOf(exchange: Exchange): ProxyAnswer | undefined {
  return exchange.response ? proxyAnswer(exchange.response) : undefined;
}

/** "the proxy in front of the provisioner (nginx)", "a proxy in front of the provisioner". */
export function proxyWords(proxy: ProxyAnswer): string {
  return proxy.name === undefined ? 'a proxy in front of the provisioner' : `the proxy in front of the provisioner (${proxy.name})`;
}

/**
 * A status that came back, as the end of a sentence whose subject is the request: "answered 503", or
 * "was answered 504 by the proxy in front of the provisioner (nginx) after 5.0s".
 */
export function statusAnswered(exchange: Exchange): string {
  const status = exchange.response?.status ?? 'nothing';
  const proxy = proxyOf(exchange);
  if (!proxy) return `answered ${status}`;
  return `was answered ${status} by ${proxyWords(proxy)} after ${formatMs((exchange.respondedAt ?? exchange.endedAt) - exchange.sentAt)}`;
}

/** Several proxies (or one) as the subject of a sentence. */
function proxiesWords(proxies: readonly ProxyAnswer[]): string {
  const names = [...new Set(proxies.flatMap((p) => (p.name === undefined ? [] : [p.name])))];
  if (names.length === 0) return proxyWords({});
  if (names.length === 1) return proxyWords({ name: names[0]! });
  return `the proxies in front of the provisioner (${names.join(', ')})`;
}

/** "it", "both", "all 3", "2 of 5": how many of a group. */
function shareWords(count: number, total: number): string {
  if (count < total) return `${count} of ${total}`;
  if (total === 1) return 'it';
  return total === 2 ? 'both' : `all ${total}`;
}

/**
 * "the proxy in front of the provisioner (nginx) answered 2 of 5 (502, 504) (502, 504)": how many of these exchanges a
 * proxy answered in the provisioner's place, or undefined when none.
 */
export function proxyShare(exchanges: readonly Exchange[]): string | undefined {
  const byProxy = exchanges.flatMap((exchange) => {
    const proxy = proxyOf(exchange);
    return proxy ? [{ exchange, proxy }] : [];
  });
  if (byProxy.length === 0) return undefined;
  const statuses = [...new Set(byProxy.map(({ exchange }) => exchange.response!.status))].sort((a, b) => a - b);
  return `${proxiesWords(byProxy.map(({ proxy }) => proxy))} answered ${shareWords(byProxy.length, exchanges.length)} (${statuses.join(', ')})`;
}

/**
 * Why no plan or apply got `status`: `provisionerWords` ("the provisioner never answered 202"), or, when
 * a proxy answered some of them in its place, who did: "no plan or apply was answered 202: the proxy in
 * front of the provisioner (nginx) answered all 3 (504)".
 */
export function neverAnswered(transcript: Transcript, status: 200 | 202, provisionerWords: string): string {
  const sent = submissions(transcript);
  const share = proxyShare(sent);
  if (!share || sent.some((e) => e.response?.status === status)) return provisionerWords;
  return `no plan or apply was answered ${status}: ${share}`;
}
