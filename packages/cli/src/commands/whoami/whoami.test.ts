import { describe, expect, it } from 'vitest';
import { parseArgs, runCli, tempConfigDir } from '../../../test/harness.js';
import { MOCK_BASE_URL, useMockApi } from '../../../test/mock-api.js';
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
    const result = await runCli(['whoami', '--json', '--api-key', 'svc_0123456789abcdef'], {
      env: { DATAPLATFORM_CONFIG_DIR: tempConfigDir() },
    });
    expect(JSON.parse(result.stdout)).toEqual({
      profile: { name: 'default', from: 'default' },
      baseUrl: { value: 'http://localhost:5000', from: 'default' },
      credential: { kind: 'api-key', value: 'svc_0123…', from: '--api-key' },
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
      'error: no credential is set\nhint: sign in with `dp login`, or pass --api-key <key>, set DATAPLATFORM_API_KEY, or save one with `dp config set api-key <key>`\n',
    );
  });
});

describe('dp whoami: with a session token', () => {
  const api = useMockApi();

  async function token() {
    const res = await fetch(`${MOCK_BASE_URL}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.com', password: 'correct horse battery', name: 'Ada' }),
    });
    return ((await res.json()) as { token: string }).token;
  }

  it('asks the server for the user and the plan', async () => {
    const value = await token();
    const env = { DATAPLATFORM_BASE_URL: MOCK_BASE_URL, DATAPLATFORM_TOKEN: value, NO_COLOR: '1' };
    const json = await runCli(['whoami', '--json'], { env });
    expect(JSON.parse(json.stdout)).toMatchObject({
      credential: { kind: 'token', from: 'DATAPLATFORM_TOKEN' },
      user: { email: 'ada@example.com', name: 'Ada' },
      plan: 'free',
    });
    const text = await runCli(['whoami'], { env });
    expect(text.stdout).toContain('User:       ada@example.com (Ada)\n');
    expect(text.stdout).toMatch(/Plan: {7}free, trial until \d{4}-\d{2}-\d{2}\n/);
    expect(api.requests()).toEqual(['POST /api/auth/signup', 'GET /api/auth/me', 'GET /api/auth/me']);
  });

  it('exits with status 3 and says to sign in again when the server refuses the token', async () => {
    const env = { DATAPLATFORM_BASE_URL: MOCK_BASE_URL, DATAPLATFORM_TOKEN: 'not-a-session' };
    const result = await runCli(['whoami'], { env });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('could not ask the server who the session token belongs to: 401');
    expect(api.requests()).toEqual(['GET /api/auth/me']);
  });
});
