import { DEFAULTS } from './defaults.js';

/** The run profiles: fixed sets of option values for the kit's three users. */
export type ProfileName = 'quick' | 'ci' | 'certify';

export const PROFILE_NAMES: readonly ProfileName[] = ['quick', 'ci', 'certify'];

export const DEFAULT_PROFILE: ProfileName = 'ci';

export interface Profile {
  name: ProfileName;
  /** Who it is for, one line. */
  purpose: string;
  /** Option values by long option name; flags and the config file override them. */
  values: Readonly<Record<string, string | boolean>>;
  /** Cases per property when --max-examples is not given (absent: each property's own default). */
  maxExamples?: number;
}

export const PROFILES: Readonly<Record<ProfileName, Profile>> = {
  quick: {
    name: 'quick',
    purpose: "an author's loop: seconds against an instant provisioner",
    // Properties get what the two minutes leave them.
    values: { 'poll-interval': DEFAULTS.quickPollInterval, 'time-limit': DEFAULTS.quickTimeLimit },
    maxExamples: 5,
  },
  ci: {
    name: 'ci',
    purpose: 'a CI gate: the defaults, the whole run bounded in time',
    // A gate must end whatever the provisioner does; properties get what the scenarios leave of it.
    values: { 'poll-interval': DEFAULTS.runPollInterval, 'time-limit': DEFAULTS.ciTimeLimit },
  },
  certify: {
    name: 'certify',
    purpose: "certification before registration: the control plane's own poll interval, every rule, strict, a registration required",
    // No run-wide time limit: a spent budget leaves rules not exercised, and a certification must judge them all.
    // Each operation is still bounded by maxOperationDuration, and each property by a limit derived from it
    // (property-time-limit.ts): a fixed one would be shorter than the cases of a slow provisioner.
    values: { 'poll-interval': DEFAULTS.controlPlanePollInterval, strict: true },
    maxExamples: 50,
  },
};

export function isProfileName(name: string): name is ProfileName {
  return (PROFILE_NAMES as readonly string[]).includes(name);
}
