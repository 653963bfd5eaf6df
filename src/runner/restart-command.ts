import { RestartFailedError } from '../errors.js';
import { spawn } from 'node:child_process';
import type { Restart, RestartReport } from '../core/restart.js';

export type { Restart, RestartReport } from '../core/restart.js';


/** Output kept from a restart command: its end, where the error usually is. */
const OUTPUT_LIMIT = 16 * 1024;

/**
 * After the command exits, its output pipes may stay open: a provisioner it started in the background
 * inherits them. The kit reads what is already there for this long, then lets go of the pipes.
 */
const PIPE_GRACE_MS = 250;

/** Runs `command` with the system shell; its exit code says whether the restart worked. */
export function shellRestart(command: string): Restart {
  return {
    describe: `restart command: ${command}`,
    run: (signal) => runShell(command, signal),
  };
}

function runShell(command: string, signal: AbortSignal): Promise<RestartReport> {
  return new Promise((resolve, reject) => {
    let output = '';
    let cut = false;
    const keep = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      if (output.length > OUTPUT_LIMIT) {
        output = output.slice(-OUTPUT_LIMIT);
        cut = true;
      }
    };
    const kept = (): string => (cut ? withoutCutWord(output) : output);
    // Its own process group, so that a command that has to be stopped is stopped with everything it started.
    const child = spawn(command, { shell: true, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const stop = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // it has already exited
      }
    };
    const onAbort = (): void => {
      stop();
      const reason = signal.reason instanceof Error ? signal.reason.message : 'was stopped';
      finish(() => reject(new RestartFailedError(`the restart command ${JSON.stringify(command)} ${reason}`, kept())));
    };
    let done = false;
    const finish = (settle: () => void): void => {
      if (done) return;
      done = true;
      signal.removeEventListener('abort', onAbort);
      const closed = Promise.all([streamEnd(child.stdout), streamEnd(child.stderr)]);
      void Promise.race([closed, new Promise((wait) => setTimeout(wait, PIPE_GRACE_MS))]).then(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        settle();
      });
    };
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    child.once('error', (error) => finish(() => reject(new RestartFailedError(`the restart command ${JSON.stringify(command)} could not be started: ${error.message}`, kept()))));
    child.once('exit', (code, killedBy) => {
      if (code === 0) finish(() => resolve({ output: kept() }));
      else {
        const how = code === null ? `was killed by ${killedBy}` : `exited with code ${code}`;
        finish(() => reject(new RestartFailedError(`the restart command ${JSON.stringify(command)} ${how}`, kept())));
      }
    });
  });
}

/**
 * Output whose beginning was dropped, from its first whole line (else its first whole word) on: a cut in the
 * middle of a word could keep the end of a token, which the secret mask would not know for one.
 */
export function withoutCutWord(output: string): string {
  const line = output.indexOf('\n');
  const space = output.search(/\s/);
  const from = line !== -1 ? line + 1 : space !== -1 ? space + 1 : output.length;
  return `…\n${output.slice(from)}`;
}

function streamEnd(stream: NodeJS.ReadableStream & { readableEnded: boolean }): Promise<void> {
  if (stream.readableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    stream.once('end', resolve);
    stream.once('close', resolve);
  });
}
