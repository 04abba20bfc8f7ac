import { describe, expect, it } from 'vitest';
import type { StoredConfig } from './profile.js';
import { dataCredential, requireKnownProfile, resolveSettings, type SettingFlags } from './resolve.js';

const stored: StoredConfig = {
  currentProfile: 'work',
  profiles: {
    work: { baseUrl: 'https://work.example.com', apiKey: 'svc_work_key_000000' },
    home: { baseUrl: 'https://home.example.com', token: 'tok_home_000000000' },
  },
};

interface Case {
  name: string;
  flags?: SettingFlags;
  env?: Record<string, string>;
  expected: { profile: string; baseUrl: string; baseUrlFrom: string; credential: string | undefined };
}

// Each setting on its own: flag > environment variable > profile > default.
const cases: Case[] = [
  {
    name: 'the saved current profile when nothing else names one',
    expected: {
      profile: 'work',
      baseUrl: 'https://work.example.com',
      baseUrlFrom: 'profile "work"',
      credential: 'api-key svc_work_key_000000 from profile "work"',
    },
  },
  {
    name: 'DATAPLATFORM_PROFILE over the saved current profile',
    env: { DATAPLATFORM_PROFILE: 'home' },
    expected: {
      profile: 'home',
      baseUrl: 'https://home.example.com',
      baseUrlFrom: 'profile "home"',
      credential: 'token tok_home_000000000 from profile "home"',
    },
  },
  {
    name: '--profile over DATAPLATFORM_PROFILE',
    flags: { profile: 'work' },
    env: { DATAPLATFORM_PROFILE: 'home' },
    expected: {
      profile: 'work',
      baseUrl: 'https://work.example.com',
      baseUrlFrom: 'profile "work"',
      credential: 'api-key svc_work_key_000000 from profile "work"',
    },
  },
  {
    name: 'variables over the profile, each on its own',
    env: { DATAPLATFORM_BASE_URL: 'http://10.0.0.5:5000' },
    expected: {
      profile: 'work',
      baseUrl: 'http://10.0.0.5:5000',
      baseUrlFrom: 'DATAPLATFORM_BASE_URL',
      credential: 'api-key svc_work_key_000000 from profile "work"',
    },
  },
  {
    name: 'flags over variables',
    flags: { baseUrl: 'http://flag:1', apiKey: 'svc_flag' },
    env: { DATAPLATFORM_BASE_URL: 'http://env:2', DATAPLATFORM_API_KEY: 'svc_env' },
    expected: {
      profile: 'work',
      baseUrl: 'http://flag:1',
      baseUrlFrom: '--base-url',
      credential: 'api-key svc_flag from --api-key',
    },
  },
  {
    name: 'a token from a higher layer over an API key from a lower one',
    env: { DATAPLATFORM_TOKEN: 'tok_env' },
    expected: {
      profile: 'work',
      baseUrl: 'https://work.example.com',
      baseUrlFrom: 'profile "work"',
      credential: 'token tok_env from DATAPLATFORM_TOKEN',
    },
  },
  {
    name: 'the API key when both come from the same layer',
    flags: { apiKey: 'svc_flag', token: 'tok_flag' },
    expected: {
      profile: 'work',
      baseUrl: 'https://work.example.com',
      baseUrlFrom: 'profile "work"',
      credential: 'api-key svc_flag from --api-key',
    },
  },
  {
    name: 'the default address and no credential for an unsaved "default" profile',
    flags: { profile: 'default' },
    env: { DATAPLATFORM_API_KEY: '   ' },
    expected: {
      profile: 'default',
      baseUrl: 'http://localhost:5000',
      baseUrlFrom: 'default',
      credential: undefined,
    },
  },
];

describe('resolveSettings', () => {
  it.each(cases)('takes $name', ({ flags = {}, env = {}, expected }) => {
    const settings = resolveSettings(flags, env, stored);
    const credential = dataCredential(settings);
    expect({
      profile: settings.profile.value,
      baseUrl: settings.baseUrl.value,
      baseUrlFrom: settings.baseUrl.origin,
      credential: credential && `${credential.kind} ${credential.value} from ${credential.origin}`,
    }).toEqual(expected);
  });

  it('refuses a profile name that could not be saved', () => {
    expect(() => resolveSettings({ profile: '../etc' }, {}, stored)).toThrow('invalid profile name "../etc"');
    expect(() => resolveSettings({}, { DATAPLATFORM_PROFILE: '__proto__' }, stored)).toThrow(
      '(from DATAPLATFORM_PROFILE)',
    );
  });

  it('lets "default" be used unsaved, but not a named profile that was never saved', () => {
    expect(() => requireKnownProfile(resolveSettings({}, {}, { profiles: {} }))).not.toThrow();
    expect(() => requireKnownProfile(resolveSettings({ profile: 'stagin' }, {}, stored))).toThrow(
      'there is no profile "stagin" (named by --profile)',
    );
  });
});
