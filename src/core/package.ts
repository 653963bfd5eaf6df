import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { existsSync, readFileSync } from 'node:fs';

interface Manifest {
  name: string;
  version: string;
}

// The same code runs compiled (dist/src/core) and from source in tests (src/core): walk up to the package root.
function findPackageRoot(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(folder, 'package.json');
    if (existsSync(candidate) && (JSON.parse(readFileSync(candidate, 'utf8')) as Manifest).name === 'provisioner-conformance') return folder;
    const parent = dirname(folder);
    if (parent === folder) throw new Error('cannot find the provisioner-conformance package root');
    folder = parent;
  }
}

const packageRoot = findPackageRoot();

export function bundledPath(...parts: string[]): string {
  return join(packageRoot, ...parts);
}

export function kitIdentity(): Manifest {
  const manifest = JSON.parse(readFileSync(bundledPath('package.json'), 'utf8')) as Manifest;
  return { name: manifest.name, version: manifest.version };
}
