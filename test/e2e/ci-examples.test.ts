import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ciJobs } from '../support/doc-commands.js';
import { ROOT } from './run-cli.js';

const EXAMPLES = [join(ROOT, 'examples', 'gitlab-ci', '.gitlab-ci.yml'), join(ROOT, 'examples', 'github-actions', 'certify.yml')];

/** Installing the kit and the provisioner's own packages needs the network: test/e2e/pack.test.ts installs the packed kit. */
const INSTALLS = /^npm (?:ci|install)\b/;

/** A job's commands, the installs left out: those a run here performs as written. */
function jobCommands(file: string, name: string): string[] {
  const job = ciJobs(file).find((each) => each.job === name);
  if (!job) throw new Error(`${file} has no ${name} job`);
  return job.commands.filter((command) => !INSTALLS.test(command));
}

interface Step {
  command: string;
  exitCode: number;
  output: string;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

function shell(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<Step> {
  return new Promise((resolve) => {
    execFile('sh', ['-c', command], { cwd, env, timeout: 240_000, maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) => {
      const exitCode = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ command, exitCode, output: stdout + stderr });
    });
  });
}

/**
 * A project folder as a job sees it after its checkout and installs: the restart script where the examples
 * copy it, the registration document, and the kit in node_modules so that npx runs it without the network.
 * The config file in the working folder shortens what the profiles set (certify's PT10S poll interval of the
 * control plane, 50 cases per property; ci's up to 40) to what a test can wait for, as a config file may; the
 * commands themselves run as written.
 */
function projectFolder(url: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'pc-ci-example-'));
  mkdirSync(join(folder, 'ci'));
  copyFileSync(join(ROOT, 'examples', 'restart', 'provisioner-process.sh'), join(folder, 'ci', 'provisioner-process.sh'));
  const registration = JSON.parse(readFileSync(join(ROOT, 'fixtures', 'registrations', 'reference.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(folder, 'registration.json'), JSON.stringify({ ...registration, url }));
  writeFileSync(join(folder, 'provisioner-conformance.config.yaml'), 'poll-interval: PT0.2S\nmax-examples: 10\nburst: 10\n');
  mkdirSync(join(folder, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(ROOT, join(folder, 'node_modules', 'provisioner-conformance'));
  symlinkSync('../provisioner-conformance/bin/provisioner-conformance.js', join(folder, 'node_modules', '.bin', 'provisioner-conformance'));
  return folder;
}

interface Provisioner {
  /** `serve`'s flags besides its port and store. */
  flags: readonly string[];
  /** Started before the job, as CI starts a service; otherwise the job starts it. */
  asService?: boolean;
}

/**
 * Runs a job's commands one after another in a fresh project, as CI does: the first that fails ends the job.
 * The provisioner is the reference, served apart with a durable store (`serve --store`).
 */
async function runJob(commands: readonly string[], provisioner: Provisioner): Promise<{ steps: Step[]; folder: string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const folder = projectFolder(url);
  const serve = [process.execPath, join(ROOT, 'bin', 'provisioner-conformance.js'), 'serve', '--port', String(port), '--store', join(folder, 'store.json'), ...provisioner.flags];
  const env = {
    ...process.env,
    NO_COLOR: '1',
    PROVISIONER_URL: url,
    PROVISIONER_START: serve.map((arg) => `'${arg}'`).join(' '),
  };
  const steps: Step[] = [];
  try {
    if (provisioner.asService) expect((await shell('sh ci/provisioner-process.sh start', folder, env)).exitCode).toBe(0);
    for (const command of commands) {
      const step = await shell(command, folder, env);
      steps.push(step);
      if (step.exitCode !== 0) break;
    }
  } finally {
    await shell('sh ci/provisioner-process.sh stop', folder, env);
  }
  return { steps, folder };
}

function reportOf(file: string): { verdict: string; rules: Array<{ id: string; status: string; message: string }> } {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** Work of seconds, as real work is: the restart meets the opening operations in progress. */
const CERTIFIED = ['--mode', 'async', '--work', 'PT2S'];
/** Work that outlasts the opening calls, so that the restart meets it in progress and loses it. */
const LOST = ['--mode', 'async', '--work', 'PT2S', '--fault', 'lost-on-restart'];

function transcriptOf(steps: readonly Step[]): string {
  return steps.map((step) => `$ ${step.command}\n${step.output}`).join('\n');
}

// One describe, every run concurrent: the file lasts as long as its longest run, the passing certification. It
// shares the machine with other files (it is not in vitest.config.ts's ALONE list): its verdicts hold on a loaded
// machine.
describe("the CI examples' jobs, run as written", () => {
  const [gitlab, github] = EXAMPLES.map((file) => jobCommands(file, 'certify'));

  it('the certify jobs start the provisioner, certify it with a restart command, then verify the evidence, the same way in GitLab and GitHub', () => {
    expect(gitlab).toEqual(github);
    expect(gitlab).toEqual([
      expect.stringContaining('provisioner-process.sh start'),
      expect.stringMatching(/run --profile certify .*--bundle evidence .*--restart-command/),
      expect.stringContaining('verify evidence'),
    ]);
  });

  it.concurrent('the GitLab conformance job waits for the provisioner and gates it: pass, with the JUnit, HTML and JSON reports', async () => {
    const commands = jobCommands(EXAMPLES[0]!, 'conformance');
    expect(commands).toEqual([expect.stringMatching(/^curl /), expect.stringMatching(/run --profile ci /)]);
    const { steps, folder } = await runJob(commands, { flags: ['--mode', 'mixed', '--work', 'PT0.3S'], asService: true });
    expect(steps.map((step) => step.exitCode), transcriptOf(steps)).toEqual([0, 0]);
    expect(reportOf(join(folder, 'reports', 'report.json')).verdict).toBe('pass');
    expect(readFileSync(join(folder, 'reports', 'junit.xml'), 'utf8')).toContain('<testsuite');
    expect(existsSync(join(folder, 'reports', 'report.html'))).toBe(true);
  }, 240_000);

  it.concurrent('the certify job passes a correct provisioner, whose operations survive the restart, and its evidence is verified', async () => {
    const { steps, folder } = await runJob(gitlab!, { flags: CERTIFIED });
    expect(steps.map((step) => step.exitCode), transcriptOf(steps)).toEqual([0, 0, 0]);
    const report = reportOf(join(folder, 'evidence', 'report.json'));
    expect(report.verdict).toBe('pass');
    expect(report.rules.find((rule) => rule.id === 'durability.survives-restart')).toMatchObject({
      status: 'pass',
      message: expect.stringMatching(/^\d+ operations in progress across the restart were still known afterwards/),
    });
    expect(steps[2]!.output).toContain('the bundle holds');
  }, 240_000);

  it.concurrent('the certify job fails a provisioner that loses its operations in a restart, and the job ends there', async () => {
    const { steps, folder } = await runJob(gitlab!, { flags: LOST });
    expect(steps.map((step) => step.exitCode), transcriptOf(steps)).toEqual([0, 1]);
    const report = reportOf(join(folder, 'evidence', 'report.json'));
    expect(report.verdict).toBe('fail');
    expect(report.rules.find((rule) => rule.id === 'durability.survives-restart')?.status).toBe('fail');
    expect(existsSync(join(folder, 'evidence', 'manifest.json'))).toBe(true);
  }, 240_000);
});
