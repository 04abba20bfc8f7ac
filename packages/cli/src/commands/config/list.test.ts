import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs, runCli, tempConfigDir } from '../../../test/harness.js';
import { newConfigListCommand } from './list.js';

describe('dp config list: arguments', () => {
  it('takes no argument', async () => {
    expect(await parseArgs(newConfigListCommand, [])).toMatchObject({ ok: true, options: {} });
    expect(await parseArgs(newConfigListCommand, ['x'])).toMatchObject({ ok: false, code: 2 });
  });
});

describe('dp config list: run', () => {
  it('shows each setting in effect with its origin, secrets masked', async () => {
    const dir = tempConfigDir();
    const env = { DATAPLATFORM_CONFIG_DIR: dir };
    await runCli(['config', 'set', 'base-url', 'http://saved:5000'], { env });
    await runCli(['config', 'set', 'api-key', 'svc_0123456789abcdef'], { env });
    const result = await runCli(['config', 'list', '--json', '--token', 'tok_flag_0123456789'], {
      env: { ...env, DATAPLATFORM_BASE_URL: 'http://env:5000' },
    });
    expect(JSON.parse(result.stdout)).toEqual({
      profile: { name: 'default', from: 'default' },
      path: join(dir, 'config.json'),
      settings: [
        { key: 'base-url', value: 'http://env:5000', from: 'DATAPLATFORM_BASE_URL' },
        { key: 'api-key', value: 'svc_0123…', from: 'profile "default"' },
        { key: 'token', value: 'tok_flag…', from: '--token' },
      ],
    });
    expect(result.stdout).not.toContain('svc_0123456789abcdef');
  });

  it('prints tab-separated rows when piped, and a table with the file on a terminal', async () => {
    const dir = tempConfigDir();
    const piped = await runCli(['config', 'list'], { env: { DATAPLATFORM_CONFIG_DIR: dir } });
    expect(piped).toEqual({
      code: 0,
      stdout: 'profile\tdefault\tdefault\nbase-url\thttp://localhost:5000\tdefault\napi-key\t\t\ntoken\t\t\n',
      stderr: '',
    });
    const tty = await runCli(['config', 'list'], {
      env: { DATAPLATFORM_CONFIG_DIR: dir, NO_COLOR: '1' },
      tty: { stdout: true, stderr: true },
    });
    expect(tty.stdout).toBe(
      'key       value                  from\n' +
        'profile   default                default\n' +
        'base-url  http://localhost:5000  default\n' +
        'api-key\n' +
        'token\n',
    );
    expect(tty.stderr).toBe(`Config file: ${join(dir, 'config.json')}\n`);
  });
});
