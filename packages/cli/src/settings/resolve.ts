import { CliError, UsageError } from '../errors/cli-error.js';
import { ExitCode } from '../errors/exit-codes.js';
import { type SettingKey, settingKeys } from './keys.js';
import { DEFAULT_PROFILE, isProfileName, type StoredConfig } from './profile.js';

/** The address used when no flag, variable or profile sets one: the reference server's default. */
export const DEFAULT_BASE_URL = 'http://localhost:5000';

/** Where a value came from, highest precedence first. */
export type Layer = 'flag' | 'env' | 'profile' | 'default';

const rank: Record<Layer, number> = { flag: 0, env: 1, profile: 2, default: 3 };

/** A value and its origin in words (`--api-key`, `DATAPLATFORM_API_KEY`, `profile "ci"`, `default`). */
export interface Sourced<T = string> {
  value: T;
  layer: Layer;
  origin: string;
}

/** The global flags that take part in settings. */
export interface SettingFlags {
  profile?: string | undefined;
  baseUrl?: string | undefined;
  apiKey?: string | undefined;
  token?: string | undefined;
}

/** Every setting of this invocation, each with where it came from. */
export interface Settings {
  /** The profile in use, and whether the store has it. */
  profile: Sourced & { stored: boolean };
  baseUrl: Sourced;
  apiKey: Sourced | undefined;
  token: Sourced | undefined;
}

/** The credential a command sends. */
export interface Credential {
  kind: 'api-key' | 'token';
  value: string;
  origin: string;
}

/**
 * Resolves every setting on its own: flag > environment variable > profile > default. The profile is chosen
 * the same way: --profile > DATAPLATFORM_PROFILE > the one `dp profiles use` saved > "default". Values are
 * checked where they are used, so a bad one never stops `dp config` from fixing it.
 */
export function resolveSettings(
  flags: SettingFlags,
  env: Record<string, string | undefined>,
  stored: StoredConfig,
): Settings {
  const profile = pick([
    [flags.profile, 'flag', '--profile'],
    [readEnv(env, 'DATAPLATFORM_PROFILE'), 'env', 'DATAPLATFORM_PROFILE'],
    [stored.currentProfile, 'profile', 'the saved current profile'],
    [DEFAULT_PROFILE, 'default', 'default'],
  ])!;
  if (!isProfileName(profile.value)) {
    throw new UsageError(
      `invalid profile name ${JSON.stringify(profile.value)} (from ${profile.origin})`,
      'a profile name has letters, digits, "_" and "-", and starts with a letter or digit',
    );
  }
  const saved = Object.hasOwn(stored.profiles, profile.value) ? stored.profiles[profile.value] : undefined;
  const resolve = (key: SettingKey): Sourced | undefined =>
    pick([
      [flags[key.field], 'flag', key.flag],
      [readEnv(env, key.env), 'env', key.env],
      [saved?.[key.field], 'profile', `profile "${profile.value}"`],
    ]);
  const [baseUrlKey, apiKeyKey, tokenKey] = settingKeys as [SettingKey, SettingKey, SettingKey];
  return {
    profile: { ...profile, stored: saved !== undefined },
    baseUrl: resolve(baseUrlKey) ?? { value: DEFAULT_BASE_URL, layer: 'default', origin: 'default' },
    apiKey: resolve(apiKeyKey),
    token: resolve(tokenKey),
  };
}

/**
 * The one credential a data command sends: the API key or the token, whichever came from the higher layer;
 * from the same layer, the API key (it is the credential made for data routes).
 */
export function dataCredential(settings: Settings): Credential | undefined {
  const { apiKey, token } = settings;
  if (apiKey && (!token || rank[apiKey.layer] <= rank[token.layer])) {
    return { kind: 'api-key', value: apiKey.value, origin: apiKey.origin };
  }
  if (token) return { kind: 'token', value: token.value, origin: token.origin };
  return undefined;
}

/** Refuses a profile named by --profile or DATAPLATFORM_PROFILE that was never saved (most likely a typo). */
export function requireKnownProfile(settings: Settings): void {
  const { profile } = settings;
  if (profile.stored || profile.value === DEFAULT_PROFILE) return;
  throw new CliError(`there is no profile "${profile.value}" (named by ${profile.origin})`, {
    exitCode: ExitCode.notFound,
    hint: `\`dp profiles list\` shows the profiles; \`dp config set base-url <url> --profile ${profile.value}\` creates it`,
  });
}

function readEnv(env: Record<string, string | undefined>, name: string): string | undefined {
  return env[name]?.trim() || undefined;
}

function pick(candidates: [string | undefined, Layer, string][]): Sourced | undefined {
  for (const [value, layer, origin] of candidates) {
    if (value !== undefined && value !== '') return { value, layer, origin };
  }
  return undefined;
}
