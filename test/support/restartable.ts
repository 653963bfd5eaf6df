import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const SUPPORT = resolve(import.meta.dirname);

export type RestartableMode = 'durable' | 'forgetful' | 'stuck';

export interface RestartableProvisioner {
  url: string;
  /** The shell command that restarts it on the same port, down for `downMs` in between. */
  restartCommand(downMs: number): string;
  /** Stops whichever process serves it now (the first one, or the one a restart started). */
  stop(): Promise<void>;
}

/** Starts the provisioner of test/support/restartable-provisioner.mjs in a child process, on a free loopback port. */
export async function startRestartable(mode: RestartableMode, workMs: number): Promise<RestartableProvisioner> {
  const folder = mkdtempSync(join(tmpdir(), 'pc-restartable-'));
  const pidFile = join(folder, 'pid');
  const base = ['--state', join(folder, 'operations.json'), '--mode', mode, '--work-ms', String(workMs), '--pid-file', pidFile];
  const first = spawn(process.execPath, [join(SUPPORT, 'restartable-provisioner.mjs'), '--port', '0', ...base], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await listeningPort(first);
  const quoted = (values: string[]): string => values.map((value) => JSON.stringify(value)).join(' ');
  return {
    url: `http://127.0.0.1:${port}`,
    restartCommand: (downMs) =>
      quoted([process.execPath, join(SUPPORT, 'restart-provisioner.mjs'), '--down-ms', String(downMs), '--', '--port', String(port), ...base]),
    async stop() {
      first.kill('SIGTERM');
      if (!existsSync(pidFile)) return;
      const pid = Number(readFileSync(pidFile, 'utf8'));
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // already stopped
      }
    },
  };
}

function listeningPort(child: ChildProcess): Promise<number> {
  return new Promise((resolvePort, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /listening (\d+)/.exec(chunk.toString('utf8'));
      if (match) resolvePort(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`the provisioner exited with code ${code} before it listened`)));
  });
}
