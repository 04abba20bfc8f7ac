import { describe, expect, it } from 'vitest';
import { parseArgs, runCli, tempConfigDir } from '../../../test/harness.js';
import { newWhoamiCommand } from './whoami.js';

describe('dp whoami: arguments', () => {
  it('takes no argument, and the global flags', async () => {
    const parsed = await parseArgs(newWhoamiCommand, ['--api-key', 'svc_x', '--base-url', 'http://h']);
    expect(parsed).toMatchObject({ ok: true, flags: { apiKey: 'svc_x', baseUrl: 'http://h' } });
    expect(await parseArgs(newWhoamiCommand, ['me'])).toMatchObject({ ok: false, code: 2 });
  });
});

describe('dp whoami: run', () => {
  it('shows profile, server and credential with where each comes from, the secret masked', async () => {
    const env = { DATAPLATFORM_CONFIG_DIR: tempConfigDir(), NO_COLOR: '1' };
    await runCli(['config', 'set', 'api-key', 'svc_0123456789abcdef'], { env });
    const result = await runCli(['whoami'], {
      env: { ...env, DATAPLATFORM_BASE_URL: 'https://data.example.com' },
    });
    expect(result).toEqual({
      code: 0,
      stdout:
        'Profile:    default (default)\n' +
        'Server:     https://data.example.com (DATAPLATFORM_BASE_URL)\n' +
        'Credential: API key svc_0123… (profile "default")\n',
      stderr: '',
    });
  });

  it('prints a stable JSON shape', async () => {
    const result = await runCli(['whoami', '--json', '--token', 'tok_0123456789abcdef'], {
      env: { DATAPLATFORM_CONFIG_DIR: tempConfigDir() },
    });
    expect(JSON.parse(result.stdout)).toEqual({
      profile: { name: 'default', from: 'default' },
      baseUrl: { value: 'http://localhost:5000', from: 'default' },
      credential: { kind: 'token', value: 'tok_0123…', from: '--token' },
    });
  });

  it('exits with status 3 and says how to add a credential when there is none', async () => {
    const result = await runCli(['whoami'], {
      env: { DATAPLATFORM_CONFIG_DIR: tempConfigDir(), NO_COLOR: '1' },
    });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe(
      'Profile:    default (default)\nServer:     http://localhost:5000 (default)\n',
    );
    expect(result.stderr).toBe(
      'error: no credential is set\nhint: pass --api-key <key>, set DATAPLATFORM_API_KEY, or save one with `dp config set api-key <key>`\n',
    );
  });
});
