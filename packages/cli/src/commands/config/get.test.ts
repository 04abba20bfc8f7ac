import { describe, expect, it } from 'vitest';
import { parseArgs, runCli, tempConfigDir } from '../../../test/harness.js';
import { newConfigGetCommand } from './get.js';

describe('dp config get: arguments', () => {
  it('takes one setting', async () => {
    const parsed = await parseArgs(newConfigGetCommand, ['api-key']);
    expect(parsed.ok && parsed.options).toEqual({ key: 'api-key' });
  });

  it('refuses a value with exit status 2', async () => {
    expect(await parseArgs(newConfigGetCommand, ['api-key', 'x'])).toMatchObject({ ok: false, code: 2 });
  });
});

describe('dp config get: run', () => {
  it('prints the saved value whole, of the profile in use', async () => {
    const env = { DATAPLATFORM_CONFIG_DIR: tempConfigDir() };
    await runCli(['config', 'set', 'api-key', 'svc_default'], { env });
    await runCli(['config', 'set', 'api-key', 'svc_ci', '--profile', 'ci'], { env });
    expect(await runCli(['config', 'get', 'api-key'], { env })).toEqual({
      code: 0,
      stdout: 'svc_default\n',
      stderr: '',
    });
    const ci = await runCli(['config', 'get', 'api-key', '--json'], {
      env: { ...env, DATAPLATFORM_PROFILE: 'ci' },
    });
    expect(JSON.parse(ci.stdout)).toEqual({ profile: 'ci', key: 'api-key', value: 'svc_ci' });
  });

  it('prints the saved value, not one a variable sets for this run', async () => {
    const env = { DATAPLATFORM_CONFIG_DIR: tempConfigDir() };
    await runCli(['config', 'set', 'base-url', 'http://saved'], { env });
    const result = await runCli(['config', 'get', 'base-url'], {
      env: { ...env, DATAPLATFORM_BASE_URL: 'http://from-env' },
    });
    expect(result.stdout).toBe('http://saved\n');
  });

  it('exits with status 4 when the setting is not saved', async () => {
    const result = await runCli(['config', 'get', 'token'], {
      env: { DATAPLATFORM_CONFIG_DIR: tempConfigDir() },
    });
    expect(result).toEqual({
      code: 4,
      stdout: '',
      stderr:
        'error: token is not set in profile "default"\nhint: `dp config list` shows every setting in effect and where it comes from\n',
    });
  });
});
