// The restart command of the restart tests: stops the provisioner whose pid is in the pid file, stays
// down for a while (connections are refused meanwhile), starts it again on the same port in the
// background, and exits once it listens.
//
//   node restart-provisioner.mjs --down-ms 1000 -- <the provisioner's own arguments, with its fixed port>
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const split = process.argv.indexOf('--');
const own = process.argv.slice(2, split);
const provisionerArgs = process.argv.slice(split + 1);
const downMs = Number(own[own.indexOf('--down-ms') + 1]);
const pidFile = provisionerArgs[provisionerArgs.indexOf('--pid-file') + 1];

const pid = Number(readFileSync(pidFile, 'utf8'));
process.kill(pid, 'SIGTERM');
while (alive(pid)) await sleep(20);
process.stdout.write(`stopped ${pid}\n`);
await sleep(downMs);

const script = fileURLToPath(new URL('./restartable-provisioner.mjs', import.meta.url));
const child = spawn(process.execPath, [script, ...provisionerArgs], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
await new Promise((resolve, reject) => {
  child.stdout.on('data', (chunk) => {
    if (String(chunk).includes('listening')) resolve();
  });
  child.once('exit', (code) => reject(new Error(`the provisioner exited with code ${code} before it listened`)));
});
child.stdout.destroy();
child.unref();
process.stdout.write(`started ${child.pid}\n`);

function alive(id) {
  try {
    process.kill(id, 0);
    return true;
  } catch {
    return false;
  }
}
