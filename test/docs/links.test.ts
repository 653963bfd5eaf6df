import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

const PAGES = [
  'README.md',
  'CONTRIBUTING.md',
  'bench/README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** Markdown without its fenced code blocks and inline code, where brackets are no links. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  // Inline code is kept: a heading's `run` reads as run in its anchor.
  for (const [, heading] of markdown.replace(/^```[\s\S]*?^```$/gm, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    found.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return found;
}

/** Every relative link of a page: its target path (resolved from the repository's root) and anchor. */
function links(page: string, markdown: string): Array<{ target: string; anchor: string | undefined; written: string }> {
  const targets = [...prose(markdown).matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
  return targets
    .filter((target) => !/^[a-z]+:/.test(target))
    .map((written) => {
      const [path, anchor] = written.split('#') as [string, string | undefined];
      const target = path === '' ? page : relative(ROOT, join(ROOT, dirname(page), path));
      return { target, anchor, written };
    });
}

describe('the links of README.md, CONTRIBUTING.md, bench/ and docs/', () => {
  it('point to files that exist, and to headings those pages have', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const page of PAGES) {
      for (const link of links(page, readFileSync(join(ROOT, page), 'utf8'))) {
        checked += 1;
        const file = join(ROOT, link.target);
        if (!existsSync(file)) {
          broken.push(`${page}: ${link.written} (no ${link.target})`);
          continue;
        }
        if (link.anchor === undefined) continue;
        const ok = !statSync(file).isDirectory() && file.endsWith('.md') && anchors(readFileSync(file, 'utf8')).has(link.anchor);
        if (!ok) broken.push(`${page}: ${link.written} (no heading #${link.anchor} in ${link.target})`);
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(broken).toEqual([]);
  });

  it('are found broken when a file or heading is missing', () => {
    const page = '# A page\n\n## `run` options\n\nSee [options](#run-options), [gone](#gone), [cli](docs/cli.md) and [x](nowhere.md#a).\n\n```\n[not a link](in-code.md)\n```\n';
    expect([...anchors(page)]).toEqual(['a-page', 'run-options']);
    expect(links('README.md', page).map((link) => `${link.target}#${link.anchor ?? ''}`)).toEqual(['README.md#run-options', 'README.md#gone', 'docs/cli.md#', 'nowhere.md#a']);
  });
});
