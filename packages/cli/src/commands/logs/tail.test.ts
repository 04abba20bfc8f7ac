import { describe, expect, it } from 'vitest';
import { parseArgs, testIO } from '../../../test/harness.js';
import { useMockApi } from '../../../test/mock-api.js';
import { createFactory } from '../../factory.js';
import { type LogsTailOptions, newLogsTailCommand, runLogsTail } from './tail.js';

describe('dp logs tail: arguments', () => {
  it('parses the filters and the interval', async () => {
    expect(
      await parseArgs(newLogsTailCommand, [
        '--status',
        '4xx',
        '--method',
        'POST',
        '--path',
        '/api/v1',
        '--key',
        'k1',
      ]),
    ).toMatchObject({
      ok: true,
      options: { status: '4xx', method: 'POST', path: '/api/v1', key: 'k1', interval: 1000 },
    });
    expect(await parseArgs(newLogsTailCommand, ['--interval', '250'])).toMatchObject({
      ok: true,
      options: { interval: 250 },
    });
  });

  it.each([[['--status', '4x']], [['--method', 'FETCH']], [['--interval', '5']]])(
    'refuses %j with exit status 2',
    async (argv) => {
      expect(await parseArgs(newLogsTailCommand, argv)).toMatchObject({ ok: false, code: 2 });
    },
  );
});

describe('dp logs tail: run', () => {
  const api = useMockApi();

  async function signedIn() {
    const { token, env } = await api.signUp();
    return { base: env.DATAPLATFORM_BASE_URL, token, env: { ...env, NO_COLOR: '1' } };
  }

  function tail(env: Record<string, string>, options: LogsTailOptions, tty = false) {
    const { io, stdout, stderr } = testIO({ env, tty: { stdout: tty, stderr: tty } });
    const stop = new AbortController();
    const done = runLogsTail(createFactory(io), options, stop.signal);
    return { done, stop: () => stop.abort(), stdout, stderr };
  }

  async function until(check: () => boolean) {
    const deadline = Date.now() + 5_000;
    while (!check()) {
      if (Date.now() > deadline) throw new Error('timed out waiting');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it('prints requests answered after it started, oldest first, without its own reads, as JSON lines', async () => {
    const { base, token, env } = await signedIn();
    const headers = { authorization: `Bearer ${token}` };
    await fetch(`${base}/api/auth/profile`, { headers });
    const session = tail(env, { interval: 100 });
    await until(() => session.stderr().includes('Ready!'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await fetch(`${base}/api/auth/me`, { headers });
    await fetch(`${base}/api/v1/data/orders/missing`, { headers });
    await until(() => session.stdout().trim().split('\n').length >= 2);
    await new Promise((resolve) => setTimeout(resolve, 250));
    session.stop();
    await session.done;
    const lines = session
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { method: string; path: string; status: number });
    expect(lines.map((l) => [l.method, l.path, l.status])).toEqual([
      ['GET', '/api/auth/me', 200],
      ['GET', '/api/v1/data/orders/missing', 404],
    ]);
  });

  it('prints one line per request on a terminal and applies the filters', async () => {
    const { base, token, env } = await signedIn();
    const headers = { authorization: `Bearer ${token}` };
    const session = tail(env, { interval: 100, status: '4xx' }, true);
    await until(() => session.stderr().includes('Ready!'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await fetch(`${base}/api/auth/me`, { headers });
    await fetch(`${base}/api/v1/data/orders/missing`, { headers });
    await until(() => session.stdout().includes('missing'));
    session.stop();
    await session.done;
    expect(session.stdout()).toMatch(
      /^\d\d:\d\d:\d\d {2}404 {2}GET {4}\/api\/v1\/data\/orders\/missing \(\d+ ms\) {2}\S+\n$/,
    );
  });
});
