import { describe, expect, it } from 'vitest';
import { RestartFailedError } from '../../src/errors.js';
import { shellRestart, withoutCutWord } from '../../src/runner/restart-command.js';

const TOKEN = 'tok-cut-4821';

describe('what a restart command printed, as the kit keeps it', () => {
  it('is kept whole when it is short', async () => {
    const report = await shellRestart(`echo "restarted with ${TOKEN}"`).run(new AbortController().signal);
    expect(report?.output).toBe(`restarted with ${TOKEN}\n`);
  });

  it('never begins with the end of a word cut off, where a token\'s tail would escape the mask', async () => {
    // 12 characters of token and a line break, then 16,380 more: the first 9 are dropped, in the middle of the token.
    const command = `printf '${TOKEN}\\n'; head -c 16380 /dev/zero | tr '\\0' y; exit 3`;
    const failed = await shellRestart(command).run(new AbortController().signal).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(RestartFailedError);
    const { output } = failed as RestartFailedError;
    expect(output.startsWith('…\ny')).toBe(true);
    expect(output).toHaveLength(2 + 16380);
    expect(output).not.toMatch(/4821|821|21\n/);
  });

  it('after a cut starts at the first whole line, else the first whole word, else shows nothing of the cut word', () => {
    expect(withoutCutWord('en-tail\nnext line')).toBe('…\nnext line');
    expect(withoutCutWord('en-tail next word')).toBe('…\nnext word');
    expect(withoutCutWord('en-tail')).toBe('…\n');
  });
});
