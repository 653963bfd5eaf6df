import { TIMELINE_STYLE } from './timeline-svg.js';

/** Statuses the rules table can be filtered by; each gets a CSS rule, so filtering needs no script. */
const FILTERABLE = ['error', 'fail', 'warn', 'advice', 'waived', 'not-applicable', 'not-exercised', 'skip', 'pass'];

const FILTER_RULES = FILTERABLE.map(
  (status) => `#rules:has(#filter-${status}:checked) tr.rule:not(.s-${status}){display:none}`,
).join('\n');

export const PAGE_STYLE = `
:root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",sans-serif;font-size:15px;color:#111827;background:#f9fafb}
body{margin:0 auto;max-width:1100px;padding:1.5rem}
h1{font-size:1.4rem;margin:.2rem 0}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #e5e7eb;padding-bottom:.3rem}h3{font-size:1rem;margin:.4rem 0}
code,pre{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,monospace;font-size:.85rem}
pre{background:#f3f4f6;padding:.5rem;border-radius:4px;white-space:pre-wrap;word-break:break-all;max-height:24rem;overflow:auto;margin:.2rem 0 .6rem}
.muted{color:#6b7280}.label{display:block;font-size:.75rem;text-transform:uppercase;letter-spacing:.04em;color:#6b7280;margin-top:.4rem}
.verdict,.status{display:inline-block;border-radius:4px;padding:0 .4rem;font-weight:600;text-transform:uppercase;font-size:.8em;background:#e5e7eb}
.pass{background:#dcfce7;color:#166534}.fail,.error,.unreachable,.incomplete{background:#fee2e2;color:#991b1b}.warn{background:#fef3c7;color:#92400e}
.advice{background:#e0e7ff;color:#3730a3}.waived{background:#f3e8ff;color:#6b21a8}.not-exercised,.skip{background:#f3f4f6;color:#4b5563}.not-applicable{background:#f0f9ff;color:#075985}
.counts{display:flex;gap:1.2rem;list-style:none;padding:0;margin:.6rem 0}.counts strong{font-size:1.2rem}
.conclusions li{margin:.2rem 0}
.timeline-scroll{overflow-x:auto;background:#fff;border:1px solid #e5e7eb;border-radius:6px}
svg.timeline text{font-size:11px;fill:#374151;font-family:ui-monospace,Menlo,Consolas,monospace}svg.timeline text.axis{fill:#6b7280}
.legend{display:flex;flex-wrap:wrap;gap:1rem;list-style:none;padding:0;font-size:.85rem}
table{border-collapse:collapse;width:100%;background:#fff}th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #f3f4f6;vertical-align:top}
table.rules td:last-child{color:#374151}table.headers th{font-weight:500;color:#6b7280;width:14rem}
.filters{display:flex;flex-wrap:wrap;gap:.3rem;margin:.5rem 0}.filters input{position:absolute;opacity:0}
.filters label{border:1px solid #d1d5db;border-radius:999px;padding:.1rem .7rem;cursor:pointer;background:#fff}
.filters input:checked+label{background:#111827;color:#fff;border-color:#111827}.filters input:focus-visible+label{outline:2px solid #3b82f6}
.finding,.property{background:#fff;border:1px solid #e5e7eb;border-left:4px solid #d1d5db;border-radius:6px;padding:.6rem .9rem;margin:.8rem 0;overflow-wrap:anywhere}
.finding.s-fail,.finding.s-error,.property.p-failed{border-left-color:#dc2626}.finding.s-warn,.property.p-flaky{border-left-color:#d97706}.finding.s-advice{border-left-color:#4f46e5}
.sentence{font-style:italic;color:#374151}.evidence{padding-left:1.2rem}
details.exchange{border:1px solid #e5e7eb;border-radius:4px;margin:.3rem 0;padding:.2rem .5rem;background:#fcfcfd}details.exchange summary{cursor:pointer}
.settings{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}.settings dt{color:#6b7280}.settings dd{margin:0}
.counts a{color:inherit;text-decoration:none;border-bottom:1px dotted #9ca3af}.counts a:hover{border-bottom-style:solid}
.did-not-hold{list-style:none;padding:0;margin:.8rem 0}.did-not-hold>li{background:#fff;border:1px solid #e5e7eb;border-left:4px solid #d97706;border-radius:6px;padding:.4rem .8rem;margin:.4rem 0}
.did-not-hold>li.s-fail,.did-not-hold>li.s-error{border-left-color:#dc2626}.did-not-hold p{margin:.2rem 0}.first-evidence{font-size:.85rem;overflow-wrap:anywhere}
.more-cases{color:#374151;font-style:italic}
${TIMELINE_STYLE}
${FILTER_RULES}
`;

/**
 * Marks the page once it has been read: how many timeline lanes the browser drew, which rules that did not
 * hold are whole within the first screen, and any script error. A headless browser's DOM then shows that the
 * page rendered as written, and what a reader sees on opening it.
 */
export const PAGE_SCRIPT = `
window.addEventListener('error', function (event) { document.body.setAttribute('data-page-error', String(event.message)); });
document.body.setAttribute('data-lanes-rendered', String(document.querySelectorAll('svg.timeline g.lane').length));
var firstScreen = [];
document.querySelectorAll('.did-not-hold > li').forEach(function (item) {
  if (item.getBoundingClientRect().bottom <= window.innerHeight) firstScreen.push(item.getAttribute('data-rule'));
});
document.body.setAttribute('data-first-screen', firstScreen.join(' '));
`;
