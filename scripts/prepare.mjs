// npm runs `prepare` after `npm ci` in a clone of this repository, after `prepack` when it packs one, and when it
// installs the kit from a git URL (or a folder) for a project that depends on it. Only the last needs dist/ built
// here: npm then names the folder it packs in npm_package_resolved. A clone builds with `npm run build`, so `npm ci`
// stays quick, and `npm pack` has just built in `prepack`, so it does not build twice.
// The package ships no source maps: they would point at src/, which it does not ship.
import { spawnSync } from 'node:child_process';

if (process.env['npm_package_resolved'] && process.env['npm_command'] !== 'pack') {
  const build = spawnSync('npm', ['run', 'build:package'], { stdio: 'inherit', shell: process.platform === 'win32' });
  process.exit(build.status ?? 1);
}
