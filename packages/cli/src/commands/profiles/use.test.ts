import { describe, expect, it } from 'vitest';
import { parseArgs, runCli, tempConfigDir } from '../../../test/harness.js';
import { newProfilesUseCommand } from './use.js';

describe('dp profiles use: arguments', () => {
  it('takes one name', async () => {
    expect(await parseArgs(newProfilesUseCommand, ['ci'])).toMatchObject({
      ok: true,
      options: { name: 'ci' },
    });
    expect(await parseArgs(newProfilesUseCommand, [])).toMatchObject({ ok: false, code: 2 });
  });
});

describe('dp profiles use: run', () => {
  it('makes later commands use the profile, until a flag or variable names another', async () => {
    const env = { DATAPLATFORM_CONFIG_DIR: tempConfigDir() };
    await runCli(['config', 'set', 'base-url', 'http://staging:5000', '--profile', 'staging'], { env });
    expect(await runCli(['profiles', 'use', 'staging'], { env })).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    });
    const whoami = async (extra: Record<string, string> = {}) =>
      JSON.parse((await runCli(['whoami', '--json'], { env: { ...env, ...extra } })).stdout).profile;
    expect(await whoami()).toEqual({ name: 'staging', from: 'the saved current profile' });
    expect(await whoami({ DATAPLATFORM_PROFILE: 'default' })).toEqual({
      name: 'default',
      from: 'DATAPLATFORM_PROFILE',
    });
  });

  it('exits with status 4 for a profile that is not saved, and changes nothing', async () => {
    const env = { DATAPLATFORM_CONFIG_DIR: tempConfigDir() };
    const result = await runCli(['profiles', 'use', 'prod'], { env });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('error: there is no profile "prod"');
    expect(result.stderr).toContain('`dp config set base-url <url> --profile prod` creates it');
  });
});
