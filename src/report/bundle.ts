import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { catalogSha256, MANIFEST_FILE, MANIFEST_FORMAT, sha256, type BundleManifest, type ManifestEntry } from '../runner/bundle-manifest.js';
import type { RunOutcome } from '../runner/outcome.js';
import type { SecretMask } from './secret-mask.js';
import { COLLECTION_SCHEDULE } from '../client/collection-schedule.js';
import { writeAtomically } from './atomic-file.js';
import { fileSha256 } from './file-sha256.js';
import { writeHtmlReport } from './write-html.js';
import { writeJsonReport } from './write-json.js';
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
  // Each report is made as its file is written, and hashed from the file: the JSON and HTML reports and the
  // transcript are streamed, so a long run's are never one string, and no report is held while the next is made.
  const files: Array<[string, string | ((temporary: string) => Promise<void>)]> = [
    ['report.json', (temporary) => writeJsonReport(temporary, outcome, mask)],
    ['report.html', (temporary) => writeHtmlReport(temporary, outcome, mask)],
    ['junit.xml', (temporary) => writeFile(temporary, junitText(outcome, mask))],
    ['transcript.json', (temporary) => writeTranscript(temporary, outcome, mask)],
    ['settings.json', mask.json(`${JSON.stringify(input.settings, null, 2)}\n`)],
  ];
  const registration = outcome.context.registration;
  if (registration) files.push(['registration.json', mask.json(await readFile(registration.file, 'utf8'))]);
  await mkdir(dir, { recursive: true });
  const entries: ManifestEntry[] = [];
  for (const [path, content] of files) {
    COLLECTION_SCHEDULE.collectNow();
    if (typeof content === 'string') {
      await writeAtomically(join(dir, path), (temporary) => writeFile(temporary, content));
      entries.push({ path, sha256: sha256(content), bytes: Buffer.byteLength(content) });
    } else {
      await writeAtomically(join(dir, path), content);
      entries.push({ path, ...(await fileSha256(join(dir, path))) });
    }
  }
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
