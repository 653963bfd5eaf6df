import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from './run-cli.js';

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  env?: Record<string, string>;
  run?: string;
}

const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, { default?: string }>; runs: { steps: Step[] } };
const step = action.runs.steps.find((s) => s.id === 'run')!;

/** The header values one request carried, as the bytes arrived (latin1 keeps every byte). */
type Received = Record<string, string[]>;

/** A synchronous provisioner on loopback that keeps the headers of every request it gets. */
function recordingProvisioner(): { server: Server; requests: Received[] } {
  const requests: Received[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    const received: Received = {};
    for (let i = 0; i < request.rawHeaders.length; i += 2) (received[request.rawHeaders[i]!.toLowerCase()] ??= []).push(request.rawHeaders[i + 1]!);
    requests.push(received);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST') {
        response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"unknown operation"}');
        return;
      }
      let changes: Array<{ id: unknown; environment: unknown }> = [];
      try {
        changes = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { changes: typeof changes }).changes;
      } catch {
        response.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"not a change set"}');
        return;
      }
      const results = changes.map((c) => ({ id: c.id, environment: c.environment, outcome: 'succeeded', description: 'Done.' }));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ outcome: 'succeeded', description: 'Done.', results }));
    });
  });
  return { server, requests };
}

interface StepRun {
  code: number;
  output: string;
  stdout: string;
  stderr: string;
  cwd: string;
}

/** Runs the step's script as a composite step runs it (`bash --noprofile --norc -eo pipefail`), the inputs as its environment. */
function runStep(inputs: Record<string, string>, prepare?: (cwd: string) => void): Promise<StepRun> {
  const cwd = mkdtempSync(join(tmpdir(), 'pc-action-'));
  prepare?.(cwd);
  const script = join(cwd, 'step.sh');
  writeFileSync(script, step.run!);
  const output = join(cwd, 'github-output');
  writeFileSync(output, '');
  const env: Record<string, string> = { PATH: process.env['PATH'] ?? '', HOME: cwd, NO_COLOR: '1', GITHUB_OUTPUT: output, KIT: join(ROOT, 'bin', 'provisioner-conformance.js') };
  // As the runner does: an input not given is its default.
  for (const [name, input] of Object.entries(action.inputs)) env[`INPUT_${name.toUpperCase()}`] = inputs[name] ?? input.default ?? '';
  return new Promise((done) => {
    execFile('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd, env, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, output: readFileSync(output, 'utf8'), stdout, stderr, cwd });
    });
  });
}

/** Tokens a shell would change or choke on; each must arrive exactly as written. */
const HOSTILE = {
  'x-dollar': 'pa$$word1 $HOME ${PATH}',
  'x-quotes': `say "hi" and 'bye' \\" \\`,
  'x-backtick': 'a`touch backtick-ran`b',
  'x-subshell': '$(touch subshell-ran) $((6*7)) ;|& > out * ?',
  authorization: `Bearer t$k"n'x\`y$(id)`,
};

describe("action.yml's install step", () => {
  it("keeps the runner's Node for the caller's later steps and installs no development packages", () => {
    expect(action.runs.steps.filter((s) => s.uses !== undefined)).toEqual([]);
    const install = action.runs.steps.find((s) => s.name === 'Install the kit')!;
    expect(install.run?.trim()).toBe('node scripts/action-install.mjs');
    const script = readFileSync(join(ROOT, 'scripts', 'action-install.mjs'), 'utf8');
    expect(script).toContain("npm(['ci', '--omit=dev'], ROOT)");
    // Every package it installs beside the kit is one the build needs and package.json pins.
    const { devDependencies } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    const tools = JSON.parse(/const BUILD_TOOLS = (\[[^\]]*\])/.exec(script)![1]!.replaceAll("'", '"')) as string[];
    expect(tools.filter((name) => !name.startsWith('@types/') && name !== 'typescript')).toEqual([]);
    for (const name of tools) expect(devDependencies[name], name).toBeDefined();
  });
});

describe("action.yml's run step", () => {
  const provisioner = recordingProvisioner();
  let url: string;

  beforeAll(async () => {
    await new Promise<void>((ready) => provisioner.server.listen(0, '127.0.0.1', ready));
    url = `http://127.0.0.1:${(provisioner.server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((closed) => provisioner.server.close(() => closed())));

  it('takes every input from the environment, never from an expression in the script', () => {
    expect(step.run).not.toContain('${{');
    expect(step.run).not.toMatch(/\beval\b/);
    const inputs = Object.keys(action.inputs);
    expect(inputs).toEqual(expect.arrayContaining(['url', 'profile', 'registration', 'headers', 'args', 'reports']));
    for (const name of inputs) expect(step.env?.[`INPUT_${name.toUpperCase()}`], name).toBe(`\${{ inputs.${name} }}`);
  });

  it('sends hostile tokens from headers and args byte for byte, and sets the verdict output', async () => {
    provisioner.requests.length = 0;
    const lines = Object.entries(HOSTILE).map(([name, value]) => `${name}: ${value}`);
    // Line endings as a Windows editor or a secret stored with its last newline leave them.
    const headers = `${lines.slice(0, -1).join('\n')}\r\n${lines.at(-1)!}\n\n`;
    const args = ['--no-properties', '--burst', '0', '--header', `X-Args: "two words" 'and' $(touch args-ran) \`x\``, '--header=X-Equals: a=b $c', ''].join('\n');
    const run = await runStep({ url, profile: 'quick', headers, args, reports: 'out dir $(x)' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.output).toBe('verdict=pass\n');
    expect(JSON.parse(readFileSync(join(run.cwd, 'out dir $(x)', 'report.json'), 'utf8'))).toMatchObject({ verdict: 'pass', settings: { profile: 'quick' } });
    const expected: Record<string, string> = { ...HOSTILE, 'x-args': `"two words" 'and' $(touch args-ran) \`x\``, 'x-equals': 'a=b $c' };
    expect(provisioner.requests.length).toBeGreaterThan(10);
    for (const received of provisioner.requests) {
      for (const [name, value] of Object.entries(expected)) expect(received[name], name).toEqual([value]);
    }
    // Nothing in a token ran.
    expect(readdirSync(run.cwd).sort()).toEqual(['github-output', 'out dir $(x)', 'step.sh']);
  }, 60_000);

  it('refuses a token holding a line break before anything is sent, and still sets the verdict output', async () => {
    provisioner.requests.length = 0;
    const run = await runStep({ url, profile: 'quick', headers: 'Authorization: Bearer first-half\nsecond-half"$(touch newline-ran)', args: '--no-properties' }, (cwd) => {
      // A report an earlier step left is not this run's verdict.
      mkdirSync(join(cwd, 'conformance-reports'));
      writeFileSync(join(cwd, 'conformance-reports', 'report.json'), '{"verdict":"pass"}');
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('[KIT_USAGE]');
    expect(run.output).toBe('verdict=error\n');
    expect(provisioner.requests).toEqual([]);
    expect(existsSync(join(run.cwd, 'conformance-reports', 'report.json'))).toBe(false);
    expect(existsSync(join(run.cwd, 'newline-ran'))).toBe(false);
  }, 60_000);
});
