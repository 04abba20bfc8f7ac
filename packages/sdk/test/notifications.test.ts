import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { DataPlatform, NotFoundError } from '../src/index.js';
import { useMockedApi } from './mocked-api.js';

const { baseUrl, server } = useMockedApi();

describe('client.notifications', () => {
  it('lists, counts, reads, reads all and deletes the signed-in user’s notifications', async () => {
    const client = new DataPlatform({ baseUrl, maxRetries: 0 });
    const credentials = { email: 'told@example.com', password: 'a long enough password' };
    await client.auth.signUp({ ...credentials, name: 'Told' }, { storeToken: true });
    // Repeated failures lock sign-in, which the user is told of.
    const guesser = new DataPlatform({ baseUrl, maxRetries: 0 });
    for (let i = 0; i < 10; i++)
      await guesser.auth.signIn({ ...credentials, password: 'wrong guess' }).catch(() => undefined);
    const page = await client.notifications.page({ unread: true });
    expect(page).toMatchObject({ total: 1, unread: 1 });
    const [locked] = page.data;
    expect(locked).toMatchObject({ kind: 'account_locked', readAt: null });
    const walked = [];
    for await (const n of client.notifications.list({ limit: 1 })) walked.push(n._id);
    expect(walked).toEqual([locked!._id]);
    expect((await client.notifications.read(locked!._id)).readAt).not.toBeNull();
    expect(await client.notifications.readAll()).toEqual({ read: 0 });
    expect(await client.notifications.delete(locked!._id)).toEqual({ _id: locked!._id, deleted: true });
    await expect(client.notifications.read(locked!._id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('reads and changes the preferences of each kind', async () => {
    const client = new DataPlatform({ baseUrl, maxRetries: 0 });
    await client.auth.signUp(
      { email: 'prefs@example.com', password: 'a long enough password', name: 'Prefs' },
      { storeToken: true },
    );
    expect((await client.notifications.preferences()).account_locked).toEqual({ inApp: true, email: true });
    const changed = await client.notifications.setPreferences({
      backup_failed: { inApp: false, email: true },
    });
    expect(changed.backup_failed).toEqual({ inApp: false, email: true });
    expect(changed.new_sign_in).toEqual({ inApp: true, email: false });
  });

  it('ends the stream at the error event a server sends a reader too far behind, yielding only notifications', async () => {
    const told = { _id: 'ntf_1', kind: 'backup_failed', title: 'A backup failed' };
    const text =
      'retry: 2000\n\n' +
      `id: ntf_1\nevent: notification\ndata: ${JSON.stringify(told)}\n\n` +
      'id: ntf_1\nevent: error\ndata: {"code":"too_slow","message":"resume","lastEventId":"ntf_1"}\n\n';
    server.use(
      http.get(
        `${baseUrl}/api/notifications/stream`,
        () => new HttpResponse(text, { headers: { 'content-type': 'text/event-stream' } }),
        { once: true },
      ),
    );
    const client = new DataPlatform({ baseUrl, token: 'session', maxRetries: 0 });
    const received = [];
    for await (const n of client.notifications.stream()) received.push(n);
    expect(received).toEqual([told]);
  });
});
