/**
 * What one profile stores. A profile is one server and the credentials for it; `token` sits beside `apiKey` so a
 * session token (from a sign-in) and an API key can be kept together and each command sends the one it needs.
 */
export interface Profile {
  baseUrl?: string;
  apiKey?: string;
  token?: string;
}

/** The whole stored configuration: the profile in use and every profile by name. */
export interface StoredConfig {
  currentProfile?: string;
  profiles: Record<string, Profile>;
}

/** The profile used when nothing names one. */
export const DEFAULT_PROFILE = 'default';

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** Whether `name` can name a profile: letters, digits, `_` and `-`, starting with a letter or digit. */
export function isProfileName(name: string): boolean {
  return PROFILE_NAME.test(name);
}
