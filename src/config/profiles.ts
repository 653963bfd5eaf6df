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
    values: { 'poll-interval': 'PT0.2S', 'property-time-limit': 'PT15S' },
    maxExamples: 5,
  },
  ci: {
    name: 'ci',
    purpose: 'a CI gate: the defaults, each property bounded in time',
    values: { 'poll-interval': 'PT1S', 'property-time-limit': 'PT60S' },
  },
  certify: {
    name: 'certify',
    purpose: "certification before registration: the control plane's own poll interval, every rule, strict, a registration required",
    values: { 'poll-interval': 'PT10S', strict: true, 'property-time-limit': 'PT10M' },
    maxExamples: 50,
  },
};

export function isProfileName(name: string): name is ProfileName {
  return (PROFILE_NAMES as readonly string[]).includes(name);
}
