// The GitHub Action's install step. It runs the kit on the runner's own Node: a composite action that switched
// Node would switch it for the caller's later steps too. It installs the kit's dependencies without its
// development ones (test runner, mutation testing, mocks), and beside them, in a folder of their own, only the
// compiler and the type packages the build needs, at the versions package.json pins. It builds the command line
// and the library (tsconfig.action.json), not the vitest helper a job running the action never imports.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const BUILD_TOOLS = ['typescript', '@types/node', '@types/yargs', '@types/html-to-text'];
const OLDEST_NODE = [20, 18];

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < OLDEST_NODE[0] || (major === OLDEST_NODE[0] && minor < OLDEST_NODE[1])) {
  console.log(`::error::provisioner-conformance needs Node.js ${OLDEST_NODE.join('.')} or newer; this runner has ${process.version}. Add actions/setup-node before this action.`);
  process.exit(1);
}

function npm(args, cwd) {
  const ran = spawnSync('npm', [...args, '--no-audit', '--no-fund'], { cwd, stdio: 'inherit', shell: process.platform === 'win32' });
  if (ran.status !== 0) process.exit(ran.status ?? 1);
}

npm(['ci', '--omit=dev'], ROOT);
const { devDependencies } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const tools = mkdtempSync(join(process.env.RUNNER_TEMP || tmpdir(), 'provisioner-conformance-build-'));
npm(['install', '--prefix', tools, '--no-save', ...BUILD_TOOLS.map((name) => `${name}@${devDependencies[name]}`)], ROOT);
for (const name of BUILD_TOOLS) {
  const link = join(ROOT, 'node_modules', name);
  mkdirSync(dirname(link), { recursive: true });
  rmSync(link, { recursive: true, force: true });
  symlinkSync(join(tools, 'node_modules', name), link, 'dir');
}
npm(['run', 'generate'], ROOT);
const built = spawnSync(process.execPath, [join(tools, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.action.json'], { cwd: ROOT, stdio: 'inherit' });
process.exit(built.status ?? 1);
