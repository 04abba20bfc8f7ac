import { describe, expect, it } from 'vitest';
import { parseArgs, runCli } from '../../../test/harness.js';
import { useMockApi } from '../../../test/mock-api.js';
import { newNotificationsListCommand } from './list.js';
import { newNotificationPreferencesCommand } from './preferences.js';

describe('dp notifications: arguments', () => {
  it('parses the list filter and page', async () => {
    expect(await parseArgs(newNotificationsListCommand, ['--unread', '--limit', '5'])).toMatchObject({
      ok: true,
      options: { unread: true, limit: 5 },
    });
  });

  it('refuses a channel that is neither on nor off with exit status 2', async () => {
    expect(
      await parseArgs(newNotificationPreferencesCommand, ['new_sign_in', '--email', 'maybe']),
    ).toMatchObject({ ok: false, code: 2 });
  });
});

describe('dp notifications: run', () => {
  const api = useMockApi();

  async function signedIn() {
    const base = api.env.DATAPLATFORM_BASE_URL!;
    const email = `n-${Math.random().toString(36).slice(2)}@example.com`;
    const password = 'a long passphrase';
    const res = await fetch(`${base}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, name: 'N' }),
    });
    const { token } = (await res.json()) as { token: string };
    // Repeated failed sign-ins lock the address, which the user is told of.
    for (let i = 0; i < 10; i++)
      await fetch(`${base}/api/auth/signin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'wrong guess' }),
      });
    return { DATAPLATFORM_BASE_URL: base, DATAPLATFORM_TOKEN: token };
  }

  it('lists, reads one, reads all, as JSON', async () => {
    const env = await signedIn();
    const listed = await runCli(['notifications', '--unread', '--json'], { env });
    expect(listed.code, listed.stderr).toBe(0);
    const page = JSON.parse(listed.stdout) as { data: { _id: string; kind: string }[]; unread: number };
    expect(page).toMatchObject({ unread: 1, data: [{ kind: 'account_locked' }] });
    const read = await runCli(['notifications', 'read', page.data[0]!._id, '--json'], { env });
    expect(read.code, read.stderr).toBe(0);
    expect(JSON.parse(read.stdout).readAt).toEqual(expect.any(String));
    const all = await runCli(['notifications', 'read-all', '--json'], { env });
    expect(JSON.parse(all.stdout)).toEqual({ read: 0 });
    const missing = await runCli(['notifications', 'read', 'ntf_nobody'], { env });
    expect(missing.code).toBe(4);
  });

  it('shows the preferences and changes one channel of a kind, keeping the other', async () => {
    const env = await signedIn();
    const changed = await runCli(
      ['notifications', 'preferences', 'backup_failed', '--email', 'on', '--json'],
      {
        env,
      },
    );
    expect(changed.code, changed.stderr).toBe(0);
    expect(JSON.parse(changed.stdout).backup_failed).toEqual({ inApp: true, email: true });
    const unknown = await runCli(['notifications', 'preferences', 'sms_sent', '--email', 'on'], { env });
    expect(unknown.stderr).toContain('sms_sent');
    expect(unknown.code).toBe(1);
  });
});
