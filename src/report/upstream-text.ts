import { createRequire } from 'node:module';
import { cutText, keepWholeCharacters, stripControl } from './safe-text.js';

// A proxy's error page matters for its heading and a sentence or two; parsing megabytes of markup says nothing more.
const HTML_INPUT_LIMIT = 256 * 1024;

// html-to-text (and the HTML parser under it) is loaded when the first HTML answer is shown: a run whose
// provisioner only answers JSON never pays for it.
const require = createRequire(import.meta.url);
let htmlToText: ((html: string) => string) | undefined;

function compileHtmlToText(): (html: string) => string {
  const { compile } = require('html-to-text') as typeof import('html-to-text');
  return compile({
    wordwrap: false,
    selectors: [
      { selector: 'head', format: 'skip' },
      { selector: 'title', format: 'skip' },
      { selector: 'script', format: 'skip' },
      { selector: 'style', format: 'skip' },
      { selector: 'noscript', format: 'skip' },
      { selector: 'template', format: 'skip' },
      { selector: 'svg', format: 'skip' },
      { selector: 'img', format: 'skip' },
      { selector: 'hr', format: 'skip' },
      ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } })),
      { selector: 'a', options: { ignoreHref: true } },
      { selector: 'ul', options: { itemPrefix: ' - ' } },
    ],
  });
}

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

export function looksLikeHtml(body: string, contentType?: string): boolean {
  const type = mediaType(contentType);
  if (type === 'text/html' || type === 'application/xhtml+xml') return true;
  return /<(?:!doctype\s+html|html[\s>]|body[\s>])/i.test(body.slice(0, 2048));
}

function looksLikeJson(body: string, contentType?: string): boolean {
  const type = mediaType(contentType);
  if (type === 'application/json' || type.endsWith('+json')) return true;
  const start = body.trimStart()[0];
  return start === '{' || start === '[';
}

function prettyJson(body: string): string | undefined {
  try {
    return JSON.stringify(JSON.parse(body) as unknown, null, 2);
  } catch {
    return undefined;
  }
}

function htmlAsText(body: string): string {
  const input = keepWholeCharacters(body, HTML_INPUT_LIMIT);
  htmlToText ??= compileHtmlToText();
  const text = htmlToText(input).replace(/\n{3,}/g, '\n\n').trim();
  const skipped = body.length - input.length;
  return skipped > 0 ? `${text}\n… (${skipped.toLocaleString('en-US')} more characters of HTML not read)` : text;
}

/**
 * An upstream body as plain text that is safe to print: HTML reduced to its headings and paragraphs,
 * JSON pretty-printed, escape sequences and control characters removed, cut to `limit` characters.
 */
export function upstreamText(body: string, contentType?: string, limit = 2000): string {
  let text = body;
  if (looksLikeHtml(body, contentType)) {
    text = htmlAsText(body);
  } else if (looksLikeJson(body, contentType)) {
    text = prettyJson(body) ?? body;
  }
  return cutText(stripControl(text), limit);
}
