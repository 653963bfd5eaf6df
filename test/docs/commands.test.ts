import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ciJobs, markdownCommands } from '../support/doc-commands.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'provisioner-conformance.js');
const HERE = 'test/docs/commands.test.ts';

/** Where a documented command is run, and why there. */
interface Coverage {
  match: RegExp;
  /** The test file that runs it, `.ci/run` for a step of CI itself, or this file. */
  by: string;
  reason: string;
}

/**
 * Every command of README.md, docs/ and the CI examples, matched in this order: an unknown command fails the test
 * by name, so a command added to the docs is added here with the test that runs it.
 */
const COVERAGE: Coverage[] = [
  // What a new user runs first, and the kit's own tests.
  { match: /^npm ci && npm run build && \.\/bin\/provisioner-conformance\.js run --reference$/, by: '.ci/run', reason: 'CI installs from scratch and runs npm test, whose correct-reference run is this run' },
  { match: /^npm test$/, by: '.ci/run', reason: 'the command CI runs' },
  // Installs need the network: the packed package is installed into a project of its own and run with npx there.
  { match: /^npm install --save-dev (?:git\+https:\/\/github\.com\/your-org|\.\/provisioner-conformance-0\.1\.0\.tgz)/, by: 'test/e2e/pack.test.ts', reason: 'installs the packed kit into a project of its own' },
  { match: /^npx (?:--yes --package \S+ )?provisioner-conformance run --url http:\/\/127\.0\.0\.1:8080$/, by: 'test/e2e/pack.test.ts', reason: 'runs the installed kit with npx' },
  { match: /^npm install --no-save --no-audit --no-fund (?:git\+https:\/\/github\.com\/your-org|"\$CONFORMANCE_KIT")/, by: 'test/e2e/pack.test.ts', reason: 'installs the packed kit into a project of its own' },
  { match: /^npm ci$/, by: 'test/e2e/ci-examples.test.ts', reason: "the provisioner's own install in a CI job, nothing of the kit's: the test prepares the folder it leaves, the kit in node_modules" },
  // The provisioner's own start in the CI examples, and the wait for it.
  { match: /^(?:\$\{\{ matrix\.provisioner\.start \}\}|npm start) &$/, by: 'test/examples.test.ts', reason: "the provisioner's own start command; the examples test checks the wait after it" },
  { match: /^curl --silent --output \/dev\/null --retry 30 --retry-delay 2 --retry-connrefused /, by: 'test/examples.test.ts', reason: 'reads the URL each example waits on from the reference, which answers 404' },
  // The CI examples' jobs, run as written against the reference served apart.
  { match: /^export PROVISIONER_URL=\S+ PROVISIONER_START="npm start"$/, by: 'test/e2e/ci-examples.test.ts', reason: 'sets the variables the certify jobs set; the test gives them for the reference' },
  { match: /^sh ci\/provisioner-process\.sh start$/, by: 'test/e2e/ci-examples.test.ts', reason: 'starts the reference served apart, as the certify jobs do' },
  { match: /^npx provisioner-conformance run --profile certify --registration registration\.json --bundle evidence --restart-command "sh ci\/provisioner-process\.sh restart"$/, by: 'test/e2e/ci-examples.test.ts', reason: 'certifies the reference (pass) and one that loses operations in a restart (fail)' },
  { match: /^npx provisioner-conformance verify evidence$/, by: 'test/e2e/ci-examples.test.ts', reason: 'verifies the bundle of the passing certification' },
  { match: /^npx provisioner-conformance run --profile ci --registration registration\.json --junit reports\/junit\.xml /, by: 'test/e2e/ci-examples.test.ts', reason: "runs the GitLab conformance job's command against the reference" },
  { match: /^npx provisioner-conformance run --url http:\/\/127\.0\.0\.1:\$\{\{ matrix\.provisioner\.port \}\} --profile ci /, by: 'test/e2e/ci-examples.test.ts', reason: "the GitLab conformance job's run with the matrix's URL and file names; that job's command is run" },
  // Restart commands for what a test machine does not have: the wait each ends with is run in this file.
  { match: /--restart-command "(?:docker restart|sudo systemctl restart|kubectl rollout restart) /, by: HERE, reason: 'needs a Docker daemon, systemd or a cluster; the provisioner-process.sh wait they end with is run here' },
  // The kit's own runs.
  { match: /^\.\/bin\/provisioner-conformance\.js run --reference --profile quick$/, by: 'test/e2e/pack.test.ts', reason: 'runs run --reference --profile quick (without properties, which test/e2e/correct-reference.test.ts runs)' },
  { match: /^\.\/bin\/provisioner-conformance\.js run --reference --reference-fault [a-z0-9-]+$/, by: 'test/e2e/reference-expectations.test.ts', reason: 'runs every fault through run --reference --reference-fault NAME' },
  { match: /^\.\/bin\/provisioner-conformance\.js run --url https:\/\/my-provisioner\.example\.com --registration registration\.json --header "Authorization: Bearer \$TOKEN" --report report\.json$/, by: 'test/e2e/auth-header.test.ts', reason: 'runs against a provisioner behind a bearer token, with --header and --report' },
  { match: /^\.\/bin\/provisioner-conformance\.js run --url … --property property\/generated-plans --seed 7 --path 1:0:0:3:…$/, by: 'test/e2e/slow-property-bugs.test.ts', reason: 'a replay line with placeholders: the test replays the line a failed property prints' },
  { match: /^\.\/bin\/provisioner-conformance\.js rules --json$/, by: HERE, reason: 'prints the catalog as JSON' },
  { match: /^\.\/bin\/provisioner-conformance\.js check-registration fixtures\/registrations\/reference\.json$/, by: HERE, reason: 'prints what docs/contract.md shows' },
  { match: /^\.\/bin\/provisioner-conformance\.js serve --list-faults$/, by: HERE, reason: 'prints what docs/reference.md shows' },
  { match: /^\.\/bin\/provisioner-conformance\.js serve --port 8080 --mode async --fault lost-on-restart --store operations\.json$/, by: HERE, reason: 'serves on a free port and says what docs/reference.md shows' },
  { match: /^provisioner-conformance observe --upstream https:\/\/provisioner\.internal:8443 --listen 0\.0\.0\.0:8080 /, by: HERE, reason: 'observes the reference until SIGINT, listening on loopback' },
];

function markdownFiles(): string[] {
  return ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
}

function ciFiles(): string[] {
  const github = readdirSync(join(ROOT, 'examples', 'github-actions')).map((name) => `examples/github-actions/${name}`);
  return [...github, 'examples/gitlab-ci/.gitlab-ci.yml'];
}

/** Every documented command with the file it is in. */
function documentedCommands(): Array<{ file: string; command: string }> {
  const fromMarkdown = markdownFiles().flatMap((file) => markdownCommands(readFileSync(join(ROOT, file), 'utf8')).map((command) => ({ file, command })));
  const fromCi = ciFiles().flatMap((file) => ciJobs(join(ROOT, file)).flatMap((job) => job.commands.map((command) => ({ file: `${file} (${job.job})`, command }))));
  return [...fromMarkdown, ...fromCi];
}

function coverageOf(command: string): Coverage | undefined {
  return COVERAGE.find((entry) => entry.match.test(command));
}

function documented(pattern: RegExp): string {
  const found = documentedCommands().find(({ command }) => pattern.test(command));
  if (!found) throw new Error(`no documented command matches ${pattern}`);
  return found.command;
}

interface Ran {
  exitCode: number;
  stdout: string;
  stderr: string;
}

function sh(command: string, cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  return new Promise((resolve) => {
    execFile('sh', ['-c', command], { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ exitCode: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

/** The lines of the plain fenced block that follows `command` in a page: the output the page shows for it. */
function shownOutput(page: string, command: string): string[] {
  const text = readFileSync(join(ROOT, page), 'utf8');
  const at = text.indexOf(command);
  // Past the end of the command's own block, to the block after it.
  const after = text.slice(text.indexOf('\n```\n', at) + 5);
  const block = /^```\n([\s\S]*?)^```$/m.exec(after);
  if (!block) throw new Error(`${page} shows no output after ${command}`);
  return block[1]!.split('\n').filter((line) => line !== '' && line !== '…');
}

/** `./bin/provisioner-conformance.js` and `provisioner-conformance` as the built kit of this checkout. */
function withKit(command: string): string {
  return command.replace(/^(?:\.\/bin\/provisioner-conformance\.js|provisioner-conformance)\b/, `'${process.execPath}' '${BIN}'`);
}

describe('the commands of README.md, docs/ and the CI examples', () => {
  it('are each run by a test, or are a step of CI, named in the table', () => {
    const commands = documentedCommands();
    expect(commands.length).toBeGreaterThan(20);
    const unknown = commands.filter(({ command }) => !coverageOf(command)).map(({ file, command }) => `${file}: ${command}`);
    expect(unknown, 'add each to COVERAGE with the test that runs it').toEqual([]);
  });

  it('name tests that exist, and no entry that no command needs', () => {
    for (const entry of COVERAGE) expect(existsSync(join(ROOT, entry.by)), entry.by).toBe(true);
    const commands = documentedCommands().map(({ command }) => command);
    const unused = COVERAGE.filter((entry) => !commands.some((command) => coverageOf(command) === entry)).map((entry) => String(entry.match));
    expect(unused).toEqual([]);
  });

  it('finds an unknown command by name', () => {
    expect(coverageOf('./bin/provisioner-conformance.js run --url http://example.com --made-up-flag')).toBeUndefined();
    expect(markdownCommands('```sh\n./bin/x run \\\n  --flag # why\n# a comment\n```\n')).toEqual(['./bin/x run --flag']);
  });
});

describe('the documented commands run here', () => {
  let served: ChildProcess | undefined;
  let url = '';
  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'dist', 'src', 'cli', 'main.js'))) throw new Error('build first: npm run build');
    served = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--host', '127.0.0.1', '--mode', 'async', '--work', 'PT0.3S'], { stdio: ['ignore', 'pipe', 'ignore'] });
    url = await new Promise<string>((resolve, reject) => {
      served!.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        const found = /http:\/\/127\.0\.0\.1:\d+/.exec(chunk);
        if (found) resolve(found[0]);
      });
      served!.once('exit', (code) => reject(new Error(`serve exited with code ${code}`)));
    });
  });
  afterAll(() => {
    served?.kill('SIGTERM');
  });

  it('rules --json prints one object per rule: id, level, section, title and sentence, as docs/rules.md says', async () => {
    const ran = await sh(withKit(documented(/ rules --json$/)), ROOT);
    expect(ran.exitCode).toBe(0);
    const rules = JSON.parse(ran.stdout) as Array<Record<string, unknown>>;
    expect(rules.length).toBeGreaterThan(30);
    for (const rule of rules) expect(Object.keys(rule)).toEqual(['id', 'level', 'section', 'title', 'sentence']);
    expect(readFileSync(join(ROOT, 'docs', 'rules.md'), 'utf8')).toContain(JSON.stringify(rules[0], null, 2).replace(/^/gm, '  '));
  });

  it('check-registration prints what docs/contract.md shows', async () => {
    const ran = await sh(withKit(documented(/ check-registration fixtures\/registrations\/reference\.json$/)), ROOT);
    expect(ran.exitCode).toBe(0);
    const contract = readFileSync(join(ROOT, 'docs', 'contract.md'), 'utf8');
    expect(contract).toContain(`\`\`\`\n${ran.stdout}\`\`\``);
  });

  it('serve --list-faults prints what docs/reference.md shows', async () => {
    const command = documented(/ serve --list-faults$/);
    const ran = await sh(withKit(command), ROOT);
    expect(ran.exitCode).toBe(0);
    const shown = shownOutput('docs/reference.md', command);
    expect(shown.length).toBeGreaterThan(2);
    expect(ran.stdout.split('\n').slice(0, shown.length)).toEqual(shown);
  });

  it('serve with a fault says what docs/reference.md shows, on a free loopback port', async () => {
    const command = documented(/ serve --port 8080 /);
    const folder = mkdtempSync(join(tmpdir(), 'pc-docs-serve-'));
    const args = command.split(/\s+/).slice(1).map((arg) => (arg === '8080' ? '0' : arg));
    const server = spawn(process.execPath, [BIN, ...args], { cwd: folder, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const shown = shownOutput('docs/reference.md', command);
      expect(shown).toHaveLength(3);
      let said = '';
      await new Promise<void>((resolve, reject) => {
        const listen = (chunk: Buffer): void => {
          said += chunk.toString('utf8');
          if (said.split('\n').length > shown.length) resolve();
        };
        server.stdout!.on('data', listen);
        server.stderr!.on('data', listen);
        server.once('exit', (code) => reject(new Error(`serve exited with code ${code}: ${said}`)));
      });
      const lines = said.trim().split('\n');
      expect(lines[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(lines.slice(1)).toEqual(shown.slice(1));
    } finally {
      server.kill('SIGTERM');
    }
  });

  it("the wait the Docker, systemd and Kubernetes restart commands end with returns once the provisioner answers", async () => {
    const waits = documentedCommands().filter(({ command }) => /--restart-command "(?:docker|sudo systemctl|kubectl) /.test(command));
    expect(waits).toHaveLength(3);
    for (const { command } of waits) expect(command).toMatch(/ && sh ci\/provisioner-process\.sh wait"$/);
    const ran = await sh(`sh '${join(ROOT, 'examples', 'restart', 'provisioner-process.sh')}' wait`, ROOT, { PROVISIONER_URL: url });
    expect(ran).toMatchObject({ exitCode: 0, stderr: '' });
  });

  it('observe, listening on loopback, judges the traffic to the reference and writes its report when stopped', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'pc-docs-observe-'));
    const registration = JSON.parse(readFileSync(join(ROOT, 'fixtures', 'registrations', 'reference.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(folder, 'registration.json'), JSON.stringify({ ...registration, url }));
    // Tests bind loopback only: the documented 0.0.0.0:8080 becomes a free loopback port.
    const args = documented(/ observe --upstream /).split(/\s+/).slice(1).map((arg) => (arg === 'https://provisioner.internal:8443' ? url : arg === '0.0.0.0:8080' ? '127.0.0.1:0' : arg));
    const observer = spawn(process.execPath, [BIN, ...args], { cwd: folder, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => observer.once('exit', resolve));
    try {
      await observeOnce(observer, exited, folder, url);
    } finally {
      observer.kill('SIGKILL');
    }
  });
});

/** Reads through the observer once, stops it with SIGINT as a user would, and checks the report it wrote. */
async function observeOnce(observer: ChildProcess, exited: Promise<number | null>, folder: string, upstream: string): Promise<void> {
  const proxy = await new Promise<string>((resolve, reject) => {
    let said = '';
    const listen = (chunk: Buffer): void => {
      said += chunk.toString('utf8');
      const found = /http:\/\/127\.0\.0\.1:\d+/.exec(said.replace(upstream, ''));
      if (found) resolve(found[0]);
    };
    observer.stdout!.on('data', listen);
    observer.stderr!.on('data', listen);
    void exited.then((code) => reject(new Error(`observe exited with code ${code}: ${said}`)));
  });
  const answer = await fetch(`${proxy}/operations/00000000-0000-4000-8000-000000000000`);
  expect(answer.status).toBe(404);
  observer.kill('SIGINT');
  expect(await exited).toBe(0);
  const report = JSON.parse(readFileSync(join(folder, 'observed.json'), 'utf8')) as { verdict: string; observation?: unknown };
  expect(report.observation).toBeDefined();
  expect(report.verdict).toBe('pass');
}
