// Writes the rules table of docs/rules.md anew from the kit's one list of rules (run after `npm run build`).
import { readFileSync, writeFileSync } from 'node:fs';
import { catalogMarkdown } from '../dist/src/cli/rules.js';

const PAGE = new URL('../docs/rules.md', import.meta.url);
const START = '<!-- rules:start -->';
const END = '<!-- rules:end -->';
const text = readFileSync(PAGE, 'utf8');
const from = text.indexOf(START);
const to = text.indexOf(END);
if (from < 0 || to < from) throw new Error(`docs/rules.md has no ${START} … ${END} block`);
writeFileSync(PAGE, `${text.slice(0, from + START.length)}\n${catalogMarkdown()}${text.slice(to)}`);
