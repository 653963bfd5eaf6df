import { describe, expect, it } from 'vitest';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readTranscriptFile } from '../../src/transcript/transcript-file.js';
import { operations } from '../../src/transcript/views.js';
import { runCli } from './run-cli.js';
import { htmlReportFor } from '../../src/report/write-html.js';
import { bigFailingOutcome } from '../report/big-outcome.js';

const CHROMIUM = ['chromium', 'chromium-browser', 'google-chrome'].find((name) => spawnSync(name, ['--version']).status === 0);

/** The DOM of a page after a headless browser, its window the size of a laptop's, has read it and run its script. */
function renderedDom(file: string): Promise<string> {
  const args = [
    '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
    `--user-data-dir=${mkdtempSync(join(tmpdir(), 'pc-chromium-'))}`, '--window-size=1280,900', '--dump-dom', pathToFileURL(file).href,
  ];
  return new Promise((done, fail) => {
    execFile(CHROMIUM!, args, { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout) => (error ? fail(error) : done(stdout)));
  });
}

describe.skipIf(CHROMIUM === undefined)('the HTML report in a real browser', () => {
  it('renders one timeline lane per operation of the transcript, with no script error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pc-html-'));
    const html = join(dir, 'report.html');
    const transcriptFile = join(dir, 'transcript.json');
    // Flaky reads put transient answers on the lanes; a warning keeps the run's exit code 0.
    const run = await runCli([
      'run', '--reference', '--reference-mode', 'async', '--reference-fault', 'flaky-reads', '--reference-work', 'PT0.3S',
      '--poll-interval', 'PT0.1S', '--no-properties', '--html', html, '--transcript', transcriptFile,
    ]);
    expect(run.exitCode).toBe(0);
    const { transcript } = await readTranscriptFile(transcriptFile);
    const expectedLanes = operations(transcript).length;
    expect(expectedLanes).toBeGreaterThan(4);

    const dom = await renderedDom(html);
    expect(dom).toContain(`data-lanes-rendered="${expectedLanes}"`);
    expect(dom).not.toMatch(/<body[^>]*data-page-error=/);
    expect(dom.match(/<g class="lane"/g)).toHaveLength(expectedLanes);
    expect(dom).toMatch(/<circle class="read transient/);
    expect(dom).toContain('operation.transient-errors');
    expect(readFileSync(html, 'utf8')).not.toMatch(/\s(?:src|href)=["']?(?:https?:)?\/\//i);
  }, 90_000);

  it('opens a failing run at full size on what failed: the failed rule is on the first screen of a page under 600 KB', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pc-html-')), 'big.html');
    const page = htmlReportFor(bigFailingOutcome());
    writeFileSync(file, page);
    expect(Buffer.byteLength(page)).toBeLessThan(600 * 1024);

    const dom = await renderedDom(file);
    expect(dom).not.toMatch(/<body[^>]*data-page-error=/);
    expect(dom).toContain('data-lanes-rendered="484"');
    const firstScreen = /<body[^>]*data-first-screen="([^"]*)"/.exec(dom)?.[1]?.split(' ');
    expect(firstScreen).toContain('operation.no-in-progress-after-final');
    expect(firstScreen).toContain('operation.transient-errors');
  }, 90_000);
});
