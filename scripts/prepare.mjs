// npm runs `prepare` after `npm ci` in a clone of this repository, and when it installs the kit from a git URL
// (or packs a folder) for a project that depends on it. Only the latter needs dist/ built here: npm then names
// the folder it packs in npm_package_resolved. A clone builds with `npm run build`, so `npm ci` stays quick.
import { spawnSync } from 'node:child_process';

if (process.env['npm_package_resolved']) {
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' });
  process.exit(build.status ?? 1);
}
