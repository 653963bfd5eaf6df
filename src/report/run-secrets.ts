import type { RunConfig } from '../config/run-config.js';
import { SecretMask } from './secret-mask.js';

/**
 * The secrets of a run, known from its configuration alone: its headers, the password of its URL, and
 * what its registration holds under secret-looking keys (the registration is copied into the transcript
 * and the bundle). Built once per run; the run adds what it learns from the exchanges.
 */
export function runSecrets(config: RunConfig, url: string): SecretMask {
  const mask = new SecretMask().addHeaders(config.headers).addUrl(url);
  if (config.registration?.json.ok) mask.learnJson(config.registration.json.value);
  return mask;
}
