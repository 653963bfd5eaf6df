import { readFile } from 'node:fs/promises';
import type { RegistrationDocument } from '../core/judge-context.js';
import { unreadableFile } from '../errors.js';
import { jsonSyntaxError } from '../core/json.js';

/** Reads a registration document. A file that cannot be read is a configuration error; what it says is judged by the rules. */
export async function loadRegistration(file: string, named = '--registration'): Promise<RegistrationDocument> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw unreadableFile(named, file, error);
  }
  try {
    return { file, json: { ok: true, value: JSON.parse(text) as unknown } };
  } catch (error) {
    // Not V8's message whole: it quotes the document, and a registration may hold a credential.
    return { file, json: { ok: false, error: jsonSyntaxError(text, error) } };
  }
}

/** The registered maxOperationDuration as written, when the document has one. */
export function registeredMaxOperationDuration(registration: RegistrationDocument): unknown {
  const value = registration.json.ok ? registration.json.value : undefined;
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>).maxOperationDuration
    : undefined;
}
