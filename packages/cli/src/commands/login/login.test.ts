import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs, runCli, tempConfigDir, testIO } from '../../../test/harness.js';
import { MOCK_BASE_URL, useMockApi } from '../../../test/mock-api.js';
import { main } from '../../main.js';
import { newLogoutCommand } from '../logout/logout.js';
import { newLoginCommand } from './login.js';

describe('dp login and logout: arguments', () => {
  it.each([
    { argv: [], options: { browser: true, open: true, timeout: 300, passwordStdin: false }, flags: {} },
    { argv: ['--no-browser'], options: { browser: false, open: true, timeout: 300 }, flags: {} },
    {
      argv: ['--no-open', '--timeout', '30'],
      options: { browser: true, open: false, timeout: 30 },
      flags: {},
    },
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

  it.each([
    ['--timeout', '0'],
    ['--timeout', 'soon'],
    ['--timeout', '3601'],
  ])('refuses %s %s', async (...argv) => {
    expect(await parseArgs(newLoginCommand, argv)).toMatchObject({ ok: false, code: 2 });
  });

  it('logout takes no argument', async () => {
    expect(await parseArgs(newLogoutCommand, [])).toMatchObject({ ok: true });
    expect(await parseArgs(newLogoutCommand, ['x'])).toMatchObject({ ok: false, code: 2 });
  });
});

describe('dp login and logout: run', () => {
  // One second between device polls (the server's default is 5) keeps the device tests short.
  const api = useMockApi({ deviceSignIn: { pollIntervalSeconds: 1 } });
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

  it('refuses two ways to sign in, and browser options with a credential', async () => {
    const { env } = setup();
    expect((await runCli(['login', '--email', 'a@b.c', '--token', 't'], { env })).code).toBe(2);
    const mixed = await runCli(['login', '--token', 't', '--no-browser'], { env });
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain('--no-browser and --no-open go with a sign-in in the browser');
    expect((await runCli(['login', '--email', 'a@b.c', '--no-open'], { env })).code).toBe(2);
    expect(api.requests()).toEqual([]);
  });

  it('without a credential, waits on loopback for the sign-in page to post the session, then saves it', async () => {
    const token = await signUp();
    const { env, saved } = setup();
    const { io, stderr, stdout } = testIO({ env });
    const exit = main(['login', '--no-open', '--json'], io);
    const url = new URL(await waitForUrl(stderr));
    expect(`${url.origin}${url.pathname}`).toBe(`${MOCK_BASE_URL}/login`);
    const callback = url.searchParams.get('redirect_to') ?? '';
    expect(callback).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const state = url.searchParams.get('state') ?? '';
    expect(state).toMatch(/^[\w-]{43}$/);

    expect((await postForm(callback, { token: 'stolen', state: 'guess' })).status).toBe(400);
    expect((await postForm(callback, { token: 'stolen', state: '' })).status).toBe(400);
    const accepted = await postForm(callback, { token, expiresAt: '2099-01-01T00:00:00.000Z', state });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toContain('Signed in — you can close this tab');

    expect(await exit).toBe(0);
    expect(JSON.parse(stdout())).toMatchObject({ credential: 'token', user: { email: 'ada@example.com' } });
    expect(saved().profiles.default.token).toBe(token);
    expect(api.requests().slice(1)).toEqual(['GET /api/auth/me']);
  });

  async function startDeviceLogin(env: Record<string, string>) {
    const { io, stderr, stdout } = testIO({ env });
    const exit = main(['login', '--no-browser', '--json'], io);
    let code: string | undefined;
    for (let i = 0; i < 200 && !code; i++) {
      code = /^ {4}([A-Z]{4}-[A-Z]{4})$/m.exec(stderr())?.[1];
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    if (!code) throw new Error(`no code printed: ${stderr()}`);
    return { exit, code, stderr, stdout };
  }

  const decide = (verdict: 'approve' | 'deny', userCode: string, token: string) =>
    fetch(`${MOCK_BASE_URL}/api/auth/device/${verdict}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ userCode }),
    });

  it('--no-browser prints the address and a short code, polls until the code is approved, and saves the session', async () => {
    const token = await signUp();
    const { env, saved } = setup();
    const login = await startDeviceLogin(env);
    expect(login.stderr()).toContain(`open ${MOCK_BASE_URL}/device on any device and enter this code`);
    expect(login.stderr()).toContain(`${MOCK_BASE_URL}/device?code=${login.code}`);
    expect((await decide('approve', login.code, token)).status).toBe(200);
    expect(await login.exit).toBe(0);
    expect(JSON.parse(login.stdout())).toMatchObject({
      credential: 'token',
      user: { email: 'ada@example.com' },
    });
    const saved_token = saved().profiles.default.token;
    expect(saved_token).toEqual(expect.any(String));
    expect(saved_token).not.toBe(token);
    expect(api.requests().slice(1)).toEqual([
      'POST /api/auth/device',
      'POST /api/auth/device/approve',
      'POST /api/auth/device/token',
      'GET /api/auth/me',
    ]);
  });

  it('--no-browser ends with status 3 when the code is denied', async () => {
    const token = await signUp();
    const { env } = setup();
    const login = await startDeviceLogin(env);
    await decide('deny', login.code, token);
    expect(await login.exit).toBe(3);
    expect(login.stderr()).toContain(`"message":"the sign-in with code ${login.code} was denied`);
    expect(api.requests().slice(1)).toEqual([
      'POST /api/auth/device',
      'POST /api/auth/device/deny',
      'POST /api/auth/device/token',
    ]);
  });

  it('--no-browser keeps polling while pending and gives up with status 3 after --timeout', async () => {
    const { env } = setup();
    const result = await runCli(['login', '--no-browser', '--timeout', '2'], { env });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/error: the code [A-Z]{4}-[A-Z]{4} was not confirmed within 2 seconds/);
    const [start, ...polls] = api.requests();
    expect(start).toBe('POST /api/auth/device');
    expect(polls.length).toBeGreaterThanOrEqual(1);
    expect(new Set(polls)).toEqual(new Set(['POST /api/auth/device/token']));
  });

  it('gives up with status 3 when the browser never answers', async () => {
    const { env } = setup();
    const result = await runCli(['login', '--no-open', '--timeout', '1'], { env });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('no sign-in arrived from the browser within 1 second');
    expect(result.stderr).toContain('dp login --no-browser');
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

async function waitForUrl(stderr: () => string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const found = /^ {2}(http\S+)$/m.exec(stderr());
    if (found) return found[1]!;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no address printed: ${stderr()}`);
}

/**
 * Posts a form as the sign-in page's browser would, over a plain socket: MSW intercepts fetch and node:http in
 * this process, and the loopback listener is a real server.
 */
function postForm(url: string, fields: Record<string, string>): Promise<{ status: number; body: string }> {
  const { hostname, port, pathname } = new URL(url);
  const body = new URLSearchParams(fields).toString();
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.end(
        `POST ${pathname} HTTP/1.1\r\nhost: ${hostname}:${port}\r\ncontent-type: application/x-www-form-urlencoded\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    });
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('end', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
      resolve({ status, body: answer.slice(answer.indexOf('\r\n\r\n') + 4) });
    });
    socket.on('error', reject);
  });
}
