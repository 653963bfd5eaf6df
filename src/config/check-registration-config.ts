import type { RegistrationDocument } from '../core/judge-context.js';
import { loadRegistration } from './registration.js';

/** The options of `check-registration`: the document to judge. */
export interface CheckRegistrationOptions {
  registration: string;
}

/** What `check-registration` judges: the document, read. */
export interface CheckRegistrationConfig {
  registration: RegistrationDocument;
}

export async function resolveCheckRegistrationConfig(options: CheckRegistrationOptions): Promise<CheckRegistrationConfig> {
  // The document is the command's argument, not a flag: the message names it so.
  return { registration: await loadRegistration(options.registration, 'the registration document') };
}
