import { describe, expect, it } from 'vitest';
import { parseArgs, runCli, tempConfigDir } from '../../../test/harness.js';
import { newProfilesListCommand } from './list.js';

describe('dp profiles list: arguments', () => {
  it('takes no argument', async () => {
    expect(await parseArgs(newProfilesListCommand, [])).toMatchObject({ ok: true });
    expect(await parseArgs(newProfilesListCommand, ['x'])).toMatchObject({ ok: false, code: 2 });
  });
});

describe('dp profiles list: run', () => {
  const withProfiles = async () => {
    const env = { DATAPLATFORM_CONFIG_DIR: tempConfigDir(), NO_COLOR: '1' };
    await runCli(['config', 'set', 'base-url', 'http://local:5000'], { env });
    await runCli(['config', 'set', 'api-key', 'svc_ci', '--profile', 'ci'], { env });
    await runCli(['config', 'set', 'token', 'tok_ci', '--profile', 'ci'], { env });
    return env;
  };

  it('lists the profiles by name, marking the one in use, with the kinds of credential they hold', async () => {
    const env = await withProfiles();
    const result = await runCli(['profiles', 'list', '--json', '--profile', 'ci'], { env });
    expect(JSON.parse(result.stdout)).toEqual({
      current: 'ci',
      profiles: [
        { name: 'ci', current: true, baseUrl: null, credentials: ['api-key', 'token'] },
        { name: 'default', current: false, baseUrl: 'http://local:5000', credentials: [] },
      ],
    });
  });

  it('prints a table on a terminal', async () => {
    const env = await withProfiles();
    const result = await runCli(['profiles', 'list'], { env, tty: { stdout: true } });
    expect(result.stdout).toBe(
      '   name     base url           credentials\n' +
        '   ci                          api-key, token\n' +
        '*  default  http://local:5000\n',
    );
  });

  it('says how to make the first profile when there is none', async () => {
    const result = await runCli(['profiles', 'list'], {
      env: { DATAPLATFORM_CONFIG_DIR: tempConfigDir(), NO_COLOR: '1' },
      tty: { stdout: true, stderr: true },
    });
    expect(result).toEqual({
      code: 0,
      stdout: '',
      stderr: 'No profiles yet: `dp config set base-url <url>` creates the "default" one\n',
    });
  });
});
