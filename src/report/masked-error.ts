import { redactQuotedJson } from '../core/redact.js';
import type { SecretMask } from './secret-mask.js';

/**
 * A kit error's text as it may leave the kit: every secret the mask knows hidden, then what the text quotes
 * of a provisioner's JSON under secret-looking keys and passwords inside URLs. Nothing is hidden with
 * `--show-secrets`.
 */
export function maskedErrorText(text: string, mask: SecretMask): string {
  return mask.showsSecrets ? text : redactQuotedJson(mask.text(text));
}

/**
 * The same error with its message and stack masked as {@link maskedErrorText} masks them, for a library
 * caller who will print it: the error keeps its class, code and cause, so it is still told apart as before.
 */
export function maskedError(error: unknown, mask: SecretMask): unknown {
  if (!(error instanceof Error) || mask.showsSecrets) return error;
  error.message = maskedErrorText(error.message, mask);
  if (error.stack !== undefined) error.stack = maskedErrorText(error.stack, mask);
  return error;
}
