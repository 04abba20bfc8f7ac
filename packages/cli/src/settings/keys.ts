import { UsageError } from '../errors/cli-error.js';
import { parseHttpAddress } from '../input/http-address.js';
import type { Profile } from './profile.js';

/** A setting the user can read and write with `dp config`, and where else its value can come from. */
export interface SettingKey {
  /** Its name on the command line (`dp config set base-url …`). */
  name: string;
  /** The profile field that stores it. */
  field: keyof Profile;
  /** The global flag that overrides it for one command. */
  flag: string;
  /** The environment variable that overrides the profile. */
  env: string;
  /** A secret is masked wherever it is listed; only `dp config get` prints it whole. */
  secret: boolean;
  description: string;
}

/** Every setting, in the order `dp config list` shows them. */
export const settingKeys: readonly SettingKey[] = [
  {
    name: 'base-url',
    field: 'baseUrl',
    flag: '--base-url',
    env: 'DATAPLATFORM_BASE_URL',
    secret: false,
    description: 'the server address, e.g. https://data.example.com',
  },
  {
    name: 'api-key',
    field: 'apiKey',
    flag: '--api-key',
    env: 'DATAPLATFORM_API_KEY',
    secret: true,
    description: 'an API key (svc_…), sent as X-API-Key',
  },
  {
    name: 'token',
    field: 'token',
    flag: '--token',
    env: 'DATAPLATFORM_TOKEN',
    secret: true,
    description: 'a session token, sent as Authorization: Bearer',
  },
];

/** The setting called `name`, or a usage error that lists the valid names. */
export function settingKey(name: string): SettingKey {
  const key = settingKeys.find((k) => k.name === name);
  if (!key) {
    throw new UsageError(
      `unknown setting "${name}"`,
      `the settings are ${settingKeys.map((k) => k.name).join(', ')}`,
    );
  }
  return key;
}

/** Checks and normalizes a value before it is stored or used. */
export function checkSettingValue(key: SettingKey, value: string): string {
  const trimmed = value.trim();
  if (trimmed === '')
    throw new UsageError(`${key.name} cannot be empty`, `\`dp config unset ${key.name}\` removes it`);
  if (key.field === 'baseUrl') return checkBaseUrl(trimmed, key.name);
  return trimmed;
}

/** An http(s) address without a trailing slash, or a usage error naming where the bad value came from. */
export function checkBaseUrl(value: string, origin: string): string {
  const url = parseHttpAddress(value);
  if (!url) {
    throw new UsageError(
      `invalid base address ${JSON.stringify(value)} (from ${origin})`,
      'use an http(s) address such as http://localhost:5000',
    );
  }
  return url.origin + url.pathname.replace(/\/+$/, '');
}

/** A secret shortened to what identifies it without revealing it: `svc_01HX…`. */
export function maskSecret(value: string): string {
  if (value.length <= 12) return '…';
  return `${value.slice(0, 8)}…`;
}
