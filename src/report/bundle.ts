import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { catalogSha256, MANIFEST_FILE, MANIFEST_FORMAT, sha256, type BundleManifest, type ManifestEntry } from '../runner/bundle-manifest.js';
import type { RunOutcome } from '../runner/outcome.js';
import type { SecretMask } from './secret-mask.js';
import { htmlReportText } from './write-html.js';
import { jsonReportText } from './write-json.js';
import { junitText } from './write-junit.js';
import { writeTranscript } from './write-transcript.js';

export interface BundleInput {
  outcome: RunOutcome;
  /** The resolved settings of the run, secrets already removed. */
  settings: Record<string, unknown>;
  /** The run's secrets; a bundle hides them even when the run was told to show them. */
  mask: SecretMask;
}

/**
 * Writes the evidence of a run to `dir`: the JSON, HTML and JUnit reports, the transcript and the
 * registration document, the resolved settings, and a manifest of every file's sha256. Secrets are
 * always masked in a bundle: it is made to be filed and passed on.
 */
export async function writeBundle(dir: string, input: BundleInput): Promise<BundleManifest> {
  const outcome: RunOutcome = { ...input.outcome, settings: { ...input.outcome.settings, showSecrets: false } };
  const { mask } = input;
  if (mask.showsSecrets) throw new Error('a bundle is always masked: give it the run\'s secrets, not the mask of --show-secrets');
  const files: Array<[string, string]> = [
    ['report.json', jsonReportText(outcome, mask)],
    ['report.html', htmlReportText(outcome, mask)],
    ['junit.xml', junitText(outcome, mask)],
    ['settings.json', mask.json(`${JSON.stringify(input.settings, null, 2)}\n`)],
  ];
  const registration = outcome.context.registration;
  if (registration) files.push(['registration.json', mask.json(await readFile(registration.file, 'utf8'))]);
  await mkdir(dir, { recursive: true });
  const entries: ManifestEntry[] = [];
  for (const [path, content] of files) {
    await writeAtomically(join(dir, path), (temporary) => writeFile(temporary, content));
    entries.push({ path, sha256: sha256(content), bytes: Buffer.byteLength(content) });
  }
  // The transcript is streamed to its file and hashed from it: a long run's transcript is never one string.
  const transcript = join(dir, 'transcript.json');
  await writeAtomically(transcript, (temporary) => writeTranscript(temporary, outcome, mask));
  entries.splice(3, 0, { path: 'transcript.json', ...(await fileHash(transcript)) });
  const manifest: BundleManifest = {
    format: MANIFEST_FORMAT,
    kit: { ...outcome.kit },
    catalogSha256: catalogSha256(),
    createdAt: new Date(outcome.finishedAt).toISOString(),
    verdict: outcome.verdict,
    files: entries,
  };
  // The manifest last: whatever a kill leaves, each file is whole, and a bundle cut off midway fails its hashes.
  await writeAtomically(join(dir, MANIFEST_FILE), (temporary) => writeFile(temporary, `${JSON.stringify(manifest, null, 2)}\n`));
  return manifest;
}

/** Each file at a temporary name, then renamed: a reader (or a kill) never sees half a file. */
async function writeAtomically(path: string, write: (temporary: string) => Promise<void>): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    await write(temporary);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
}

async function fileHash(path: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), bytes };
}
