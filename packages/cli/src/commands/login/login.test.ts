import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs, runCli, tempConfigDir } from '../../../test/harness.js';
import { MOCK_BASE_URL, useMockApi } from '../../../test/mock-api.js';
import { newLogoutCommand } from '../logout/logout.js';
import { newLoginCommand } from './login.js';

describe('dp login and logout: arguments', () => {
  it.each([
    { argv: ['--email', 'a@b.c'], options: { email: 'a@b.c', passwordStdin: false }, flags: {} },
    {
      argv: ['--email', 'a@b.c', '--password-stdin'],
      options: { email: 'a@b.c', passwordStdin: true },
      flags: {},
    },
    { argv: ['--token', 't'], options: { passwordStdin: false }, flags: { token: 't' } },
    {
      argv: ['--api-key', 'svc_k', '--profile', 'ci'],
      options: { passwordStdin: false },
      flags: { apiKey: 'svc_k', profile: 'ci' },
    },
  ])('$argv', async ({ argv, options, flags }) => {
    const parsed = await parseArgs(newLoginCommand, argv);
    expect(parsed).toMatchObject({ ok: true, options, flags });
  });

  it('logout takes no argument', async () => {
    expect(await parseArgs(newLogoutCommand, [])).toMatchObject({ ok: true });
    expect(await parseArgs(newLogoutCommand, ['x'])).toMatchObject({ ok: false, code: 2 });
  });
});

describe('dp login and logout: run', () => {
  const api = useMockApi();
  const password = 'correct horse battery';

  async function signUp(email = 'ada@example.com') {
    const res = await fetch(`${MOCK_BASE_URL}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, name: 'Ada' }),
    });
    return ((await res.json()) as { token: string }).token;
  }

  function setup() {
    const dir = tempConfigDir();
    const env = { DATAPLATFORM_CONFIG_DIR: dir, DATAPLATFORM_BASE_URL: MOCK_BASE_URL };
    const saved = () => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    return { env, saved };
  }

  it('signs in with --email and --password-stdin, saves the session token in place of a key, and whoami shows the user', async () => {
    await signUp();
    const { env, saved } = setup();
    await runCli(['config', 'set', 'api-key', 'svc_old_key_0123456789'], { env });
    const login = await runCli(['login', '--email', 'ada@example.com', '--password-stdin', '--json'], {
      env,
      stdin: `${password}\n`,
    });
    expect(login.code).toBe(0);
    expect(JSON.parse(login.stdout)).toMatchObject({
      profile: 'default',
      credential: 'token',
      user: { email: 'ada@example.com' },
    });
    const profile = saved().profiles.default;
    expect(profile.token).toEqual(expect.any(String));
    expect(profile.apiKey).toBeUndefined();
    const whoami = await runCli(['whoami', '--json'], { env });
    expect(JSON.parse(whoami.stdout)).toMatchObject({ user: { email: 'ada@example.com' }, plan: 'free' });
    expect(api.requests()).toEqual(['POST /api/auth/signup', 'POST /api/auth/signin', 'GET /api/auth/me']);
  });

  it('refuses a wrong password with status 3 and saves nothing', async () => {
    await signUp();
    const { env } = setup();
    const result = await runCli(['login', '--email', 'ada@example.com', '--password-stdin'], {
      env,
      stdin: 'wrong password\n',
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('could not sign in as ada@example.com: 401 invalid_credentials');
    expect((await runCli(['config', 'get', 'token'], { env })).code).not.toBe(0);
    expect(api.requests().slice(1)).toEqual(['POST /api/auth/signin']);
  });

  it('needs a terminal to ask for the password', async () => {
    const { env } = setup();
    const result = await runCli(['login', '--email', 'ada@example.com'], { env, stdin: '' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--password-stdin');
    expect(api.requests()).toEqual([]);
  });

  it('checks --token and --api-key against the server before saving them', async () => {
    const token = await signUp();
    const { env, saved } = setup();
    const good = await runCli(['login', '--token', token], {
      env: { ...env, NO_COLOR: '1' },
      tty: { stderr: true },
    });
    expect(good.code).toBe(0);
    expect(good.stderr).toMatch(
      /^✓ Logged in as ada@example.com; the session token is saved in profile "default"/,
    );
    expect(saved().profiles.default.token).toBe(token);
    const bad = await runCli(['login', '--token', 'forged'], { env });
    expect(bad.code).toBe(3);
    expect(saved().profiles.default.token).toBe(token);
    const key = await runCli(['login', '--api-key', api.mocks.apiKey, '--profile', 'ci'], { env });
    expect(key.code).toBe(0);
    expect(saved().profiles.ci).toEqual({ apiKey: api.mocks.apiKey });
    const badKey = await runCli(['login', '--api-key', 'svc_nope_0000000000000000'], { env });
    expect(badKey.code).toBe(3);
    expect(api.requests().slice(1)).toEqual([
      'GET /api/auth/me',
      'GET /api/auth/me',
      'GET /api/v1/data/jobs?limit=1',
      'GET /api/v1/data/jobs?limit=1',
    ]);
  });

  it('refuses no way or two ways to sign in', async () => {
    const { env } = setup();
    expect((await runCli(['login'], { env })).code).toBe(2);
    expect((await runCli(['login', '--email', 'a@b.c', '--token', 't'], { env })).code).toBe(2);
    expect(api.requests()).toEqual([]);
  });

  it('logout ends the session on the server, then forgets it; the token no longer works', async () => {
    const token = await signUp();
    const { env, saved } = setup();
    await runCli(['login', '--token', token], { env });
    const out = await runCli(['logout', '--json'], { env });
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({ profile: 'default', endedSession: true, forgot: ['token'] });
    expect(saved().profiles.default?.token).toBeUndefined();
    const whoami = await runCli(['whoami'], { env: { ...env, DATAPLATFORM_TOKEN: token } });
    expect(whoami.code).toBe(3);
    expect(api.requests().slice(1)).toEqual([
      'GET /api/auth/me',
      'POST /api/auth/logout',
      'GET /api/auth/me',
    ]);
  });
});
