import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { catalogMarkdown } from '../../src/cli/rules.js';
import { RULES } from '../../src/rules/index.js';

describe('the rules table of docs/rules.md', () => {
  const page = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'rules.md'), 'utf8');
  const block = page.slice(page.indexOf('<!-- rules:start -->') + '<!-- rules:start -->'.length + 1, page.indexOf('<!-- rules:end -->'));

  it('is the table the rules command prints from the one list of rules (npm run docs:rules writes it)', () => {
    expect(block).toBe(catalogMarkdown());
  });

  it('has one row per rule, in the list order', () => {
    const ids = [...block.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]);
    expect(ids).toEqual(RULES.map((rule) => rule.id));
  });
});
