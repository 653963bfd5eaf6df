import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RULES } from '../rules/index.js';
import type { RunOutcome } from '../runner/outcome.js';
import type { SecretMask } from './secret-mask.js';
import { htmlReportText } from './write-html.js';
import { jsonReportText } from './write-json.js';
import { junitText } from './write-junit.js';
import { transcriptText } from './write-transcript.js';

export const MANIFEST_FILE = 'manifest.json';
export const MANIFEST_FORMAT = 'provisioner-conformance/bundle@1';

export interface ManifestEntry {
  path: string;
  sha256: string;
  bytes: number;
}

/** What a bundle holds and how to check it: every file's hash, and the catalog the run was judged by. */
export interface BundleManifest {
  format: typeof MANIFEST_FORMAT;
  kit: { name: string; version: string };
  /** sha256 of the rule catalog (ids, levels, sentences): which rules, in which words, judged this run. */
  catalogSha256: string;
  createdAt: string;
  verdict: string;
  files: ManifestEntry[];
}

export function sha256(content: string | Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

/** A fingerprint of the catalog: two kits that judge by the same rules in the same words have the same one. */
export function catalogSha256(): string {
  return sha256(JSON.stringify(RULES.map(({ id, level, sentence }) => ({ id, level, sentence }))));
}

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
    ['transcript.json', transcriptText(outcome, mask)],
    ['settings.json', mask.json(`${JSON.stringify(input.settings, null, 2)}\n`)],
  ];
  const registration = outcome.context.registration;
  if (registration) files.push(['registration.json', mask.json(await readFile(registration.file, 'utf8'))]);
  await mkdir(dir, { recursive: true });
  const entries: ManifestEntry[] = [];
  for (const [path, content] of files) {
    await writeFile(join(dir, path), content);
    entries.push({ path, sha256: sha256(content), bytes: Buffer.byteLength(content) });
  }
  const manifest: BundleManifest = {
    format: MANIFEST_FORMAT,
    kit: { ...outcome.kit },
    catalogSha256: catalogSha256(),
    createdAt: new Date(outcome.finishedAt).toISOString(),
    verdict: outcome.verdict,
    files: entries,
  };
  await writeFile(join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
