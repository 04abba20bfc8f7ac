import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableEngines, bearer, startTestServer, type TestServer } from './helpers.js';

/**
 * Runs a whole account's life (sign-up, failed and good sign-ins, profile, plan, allowlist, reset by e-mail,
 * logout) for two users while capturing every log line and every answer, then looks for secrets in them.
 */
describe.each(availableEngines())('on %s, no answer and no log line', (engine) => {
  const logs: string[] = [];
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({
      engine,
      config: { logLevel: 'trace', logStream: { write: (line: string) => void logs.push(line) } },
    });
  }, 60_000);
  afterAll(() => t?.stop());

  it('carries a password, a password hash, a reset token or another user’s session token', async () => {
    const answers: { user: string; text: string }[] = [];
    const send = async (user: string, method: string, path: string, body?: unknown, token?: string) => {
      const res = await t.call(method, path, {
        key: null,
        body,
        headers: { ...(token ? bearer(token) : {}), 'user-agent': 'leak-test' },
      });
      const text = await res.text();
      answers.push({ user, text });
      return text ? JSON.parse(text) : undefined;
    };

    const people = {
      ada: {
        email: 'ada.leak@example.com',
        password: 'ada secret passphrase 1',
        newPassword: 'ada second passphrase 2',
      },
      bob: {
        email: 'bob.leak@example.com',
        password: 'bob secret passphrase 1',
        newPassword: 'bob second passphrase 2',
      },
    };
    const tokens: Record<string, string[]> = { ada: [], bob: [] };
    for (const [name, p] of Object.entries(people)) {
      const up = await send(name, 'POST', '/api/auth/signup', { email: p.email, password: p.password, name });
      tokens[name]!.push(up.token);
      await send(name, 'POST', '/api/auth/signin', { email: p.email, password: `${p.password}x` });
      const signin = await send(name, 'POST', '/api/auth/signin', { email: p.email, password: p.password });
      tokens[name]!.push(signin.token);
      for (const path of [
        '/api/auth/me',
        '/api/auth/profile',
        '/api/logs/activity',
        '/api/settings/ip-allowlist',
      ]) {
        await send(name, 'GET', path, undefined, signin.token);
      }
      await send(name, 'POST', '/api/auth/plan-choice', { plan: 'team' }, signin.token);
      await send(name, 'PUT', '/api/settings/ip-allowlist', { entries: ['127.0.0.1'] }, signin.token);
      await send(name, 'POST', '/api/v1/data/notes', { text: `${name}'s note` }, signin.token);
      await send(name, 'POST', '/api/auth/forgot-password', { email: p.email });
    }
    const outbox = await waitForLines(join(t.dataDir, 'outbox.jsonl'), 2);
    const resetTokens: string[] = [];
    for (const [name, p] of Object.entries(people)) {
      const mail = outbox.find((m) => m.to === p.email)!;
      const resetToken = decodeURIComponent(/token=(\S+)/.exec(mail.text)![1]!);
      resetTokens.push(resetToken);
      await send(name, 'POST', '/api/auth/reset-password', { token: resetToken, password: p.newPassword });
      const again = await send(name, 'POST', '/api/auth/signin', { email: p.email, password: p.newPassword });
      tokens[name]!.push(again.token);
      await send(name, 'GET', '/api/logs/activity', undefined, again.token);
      await send(name, 'POST', '/api/auth/logout-all', undefined, again.token);
      // A request with an ended session and one with a forged token: errors must not echo them.
      await send(name, 'GET', '/api/auth/me', undefined, again.token);
      await send(name, 'GET', '/api/auth/me', undefined, `${again.token}tampered`);
    }

    const passwords = Object.values(people).flatMap((p) => [p.password, `${p.password}x`, p.newPassword]);
    const hashes = await Promise.all(
      Object.values(people).map(
        async (p) => (await t.server.storage.accounts.findByEmail(p.email))!.passwordHash,
      ),
    );
    expect(answers.length).toBeGreaterThan(30);
    expect(logs.length).toBeGreaterThan(0); // the trace level logs the server's start, at least
    const log = logs.join('');
    for (const secret of [...passwords, ...hashes, ...resetTokens, ...tokens.ada!, ...tokens.bob!]) {
      expect(log).not.toContain(secret);
    }
    expect(log).not.toContain('scrypt$');
    for (const { user, text } of answers) {
      for (const secret of [...passwords, ...hashes, ...resetTokens]) expect(text).not.toContain(secret);
      expect(text).not.toContain('scrypt$');
      expect(text).not.toMatch(/passwordHash|password_hash/);
      const others = Object.entries(tokens).flatMap(([name, list]) => (name === user ? [] : list));
      for (const token of others) expect(text).not.toContain(token);
      expect(text).not.toContain('tampered');
    }
  });
});

async function waitForLines(file: string, count: number): Promise<{ to: string; text: string }[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      const lines = readFileSync(file, 'utf8').trim().split('\n').filter(Boolean);
      if (lines.length >= count) return lines.map((line) => JSON.parse(line));
    } catch {}
    if (Date.now() > deadline) throw new Error(`${file} did not get ${count} messages`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
