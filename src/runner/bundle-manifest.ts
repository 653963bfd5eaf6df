import { createHash } from 'node:crypto';
import { RULES } from '../rules/index.js';

// What a bundle's manifest is: written by the reports, checked by `verify DIR`. It lives with the checker, below both.

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
