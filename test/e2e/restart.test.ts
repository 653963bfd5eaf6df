import { afterEach, describe, expect, it } from 'vitest';
import { startRestartable, type RestartableMode, type RestartableProvisioner } from '../support/restartable.js';
import { situationTranscriptFile } from '../support/record-transcripts.js';
import { runCli } from './run-cli.js';

// RECORD_TRANSCRIPTS=1 also keeps the transcripts of the durable and the forgetful runs, for the rule tests on recordings.
const recording = process.env.RECORD_TRANSCRIPTS === '1';

// Each provisioner runs in a child process; its restart command stops it, keeps it down for a second
// (connections are refused meanwhile) and starts it again on the same port.
const WORK_MS = 1500;
const DOWN_MS = 1000;
// The runs whose provisioner is never restarted (the command fails, hangs or is not given) judge no work
// across a restart: short work keeps them quick, and they run side by side.
const SHORT_WORK_MS = 300;
const FLAGS = ['--no-properties', '--burst', '0', '--poll-interval', 'PT0.2S', '--max-operation-duration', 'PT8S', '--change-set', 'fixtures/change-sets/postgres.json'];

describe('a run that restarts the provisioner while its opening work is in progress', () => {
  let provisioner: RestartableProvisioner | undefined;
  afterEach(async () => {
    await provisioner?.stop();
    provisioner = undefined;
  });

  async function runWithRestart(mode: RestartableMode) {
    provisioner = await startRestartable(mode, WORK_MS);
    const transcript = recording ? ['--transcript', situationTranscriptFile(`restart ${mode}`)] : [];
    return runCli(['run', '--url', provisioner.url, ...FLAGS, '--restart-command', provisioner.restartCommand(DOWN_MS), ...transcript]);
  }

  function notHolding(run: Awaited<ReturnType<typeof runWithRestart>>): Record<string, string[]> {
    const ids = (status: string): string[] => run.report!.rules.filter((r) => r.status === status).map((r) => r.id);
    return { fail: ids('fail'), warn: ids('warn'), advice: ids('advice') };
  }

  it('passes a provisioner that keeps its operations across the restart, with no rule failed or warned', async () => {
    const run = await runWithRestart('durable');
    expect(notHolding(run), run.stdout).toEqual({ fail: [], warn: [], advice: [] });
    expect(run.report!.rules.find((r) => r.id === 'durability.survives-restart')).toMatchObject({
      status: 'pass',
      // The run's opening work: postgres planned twice, applied, and applied again while that apply ran.
      message: '4 operations in progress across the restart were still known afterwards and reached a final answer',
    });
    expect(run.stdout).not.toContain('--restart-command CMD');
    expect(run.exitCode).toBe(0);
  });

  it('fails durability.survives-restart alone for a provisioner that forgets its operations', async () => {
    const run = await runWithRestart('forgetful');
    expect(notHolding(run), run.stdout).toEqual({ fail: ['durability.survives-restart'], warn: [], advice: [] });
    const rule = run.report!.rules.find((r) => r.id === 'durability.survives-restart')!;
    expect(JSON.stringify(rule.evidence)).toMatch(/(after the restart ended|during the restart) answered 404/);
    expect(run.exitCode).toBe(1);
  });

  it('fails durability.survives-restart alone for a provisioner that never ends the work it restored', async () => {
    const run = await runWithRestart('stuck');
    expect(notHolding(run), run.stdout).toEqual({ fail: ['durability.survives-restart'], warn: [], advice: [] });
    expect(JSON.stringify(run.report!.rules.find((r) => r.id === 'durability.survives-restart')!.evidence)).toContain('no final answer within maxOperationDuration');
    expect(run.exitCode).toBe(1);
  });

  /** Runs `test` against a durable provisioner of short work of its own, stopped whatever happens. */
  async function withShortWork(test: (url: string, own: RestartableProvisioner) => Promise<void>): Promise<void> {
    const own = await startRestartable('durable', SHORT_WORK_MS);
    try {
      await test(own.url, own);
    } finally {
      await own.stop();
    }
  }

  // The restart command waits before it stops the provisioner: the opening applies end meanwhile, and their
  // repeats after the end are sent once the restart is over, where the repeat rules judge them.
  it.concurrent('judges the repeats of work that ended while the restart command ran', () =>
    withShortWork(async (url, own) => {
      const run = await runCli(['run', '--url', url, ...FLAGS, '--restart-command', `sleep 1.5; ${own.restartCommand(500)}`]);
      const status = (id: string): string | undefined => run.report!.rules.find((r) => r.id === id)?.status;
      expect(status('apply.idempotent'), run.stdout).toBe('pass');
      expect(status('durability.survives-restart')).toBe('pass');
      expect(run.exitCode).toBe(0);
    }),
  );

  it.concurrent('is an error of the kit, exit 2, when the restart command fails, with what it printed', () =>
    withShortWork(async (url) => {
      const run = await runCli(['run', '--url', url, ...FLAGS, '--restart-command', 'echo "no such service: provisioner" >&2; exit 3']);
      expect(run.exitCode).toBe(2);
      expect(run.report!.verdict).toBe('error');
      expect(run.stdout).toContain('KIT_RESTART_FAILED');
      expect(run.stdout).toContain('exited with code 3');
      expect(run.stdout).toContain('no such service: provisioner');
      expect(run.report!.rules.find((r) => r.id === 'durability.survives-restart')!.status).toBe('not-exercised');
    }),
  );

  it.concurrent('is an error of the kit when the restart command does not end within --restart-timeout', () =>
    withShortWork(async (url) => {
      const run = await runCli(['run', '--url', url, ...FLAGS, '--restart-command', 'echo stopping; sleep 30', '--restart-timeout', 'PT0.5S']);
      expect(run.exitCode).toBe(2);
      expect(run.report!.verdict).toBe('error');
      expect(run.stdout).toContain('did not end within 500ms (--restart-timeout)');
      expect(run.stdout).toContain('stopping');
    }),
  );

  it.concurrent('names --restart-command when the provisioner was not restarted', () =>
    withShortWork(async (url) => {
      const run = await runCli(['run', '--url', url, ...FLAGS]);
      expect(run.report!.rules.find((r) => r.id === 'durability.survives-restart')!.status).toBe('not-exercised');
      expect(run.stdout).toContain('give --restart-command CMD to restart the provisioner during the run');
      expect(run.exitCode).toBe(0);
    }),
  );
});
