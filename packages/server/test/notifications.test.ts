import { writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type Notification, NotificationList, NotificationPreferences } from '@dataplatform/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { keyExpiryNotices } from '../src/notifications/key-expiry.js';
import { bearer, forEachEngine, type SignedUp, signUp, type TestServer } from './helpers.js';
import { expectError } from './key-helpers.js';
import { type SmtpSink, startSmtpSink } from './smtp-sink.js';

// Sign-ups and sign-ins hash passwords with scrypt, and the first sign-up loads the password-strength dictionaries:
// on a busy 2-core machine a test of several of them takes longer than the default 15 s.
vi.setConfig({ testTimeout: 45_000 });

const sink: SmtpSink = await startSmtpSink();
afterAll(() => sink.close());

let addresses = 0;
/** A client address of its own (the server trusts loopback as a proxy here). */
function newAddress(): string {
  addresses++;
  return `203.0.113.${addresses}`;
}

const DAY = 86_400_000;

forEachEngine(
  (server) => {
    let t: TestServer;
    beforeAll(() => {
      t = server();
    });

    const as = (who: SignedUp, method: string, path: string, body?: unknown) =>
      t.call(method, path, { key: null, headers: bearer(who.token), body });
    const list = async (who: SignedUp, query = '') => {
      const res = await as(who, 'GET', `/api/notifications${query}`);
      expect(res.status, await res.clone().text()).toBe(200);
      return NotificationList.parse(await res.json());
    };
    const kinds = async (who: SignedUp) => (await list(who)).data.map((n) => n.kind);
    const signInFrom = (ip: string, who: SignedUp, password = who.password) =>
      t.call('POST', '/api/auth/signin', {
        key: null,
        body: { email: who.email, password },
        headers: { 'x-forwarded-for': ip },
      });
    const raise = (who: SignedUp, title: string) =>
      t.server.app.notifier.raise(who.user._id, 'backup_failed', { title, body: `${title} body` });

    describe('kinds, each raised by its cause', () => {
      it('account_locked: repeated failed sign-ins lock the address, listed and e-mailed by default', async () => {
        const who = await signUp(t);
        const ip = newAddress();
        for (let i = 0; i < 3; i++) expect((await signInFrom(ip, who, 'wrong password')).status).toBe(401);
        expect(await kinds(who)).toEqual(['account_locked']);
        const mail = await sink.next(who.email);
        expect(mail.subject).toBe('Sign-in locked');
        expect(mail.text).toContain(ip);
      });

      it('new_sign_in: a sign-in from an address not seen before, not from a known one', async () => {
        const who = await signUp(t);
        const ip = newAddress();
        expect((await signInFrom(ip, who)).status).toBe(200);
        expect((await signInFrom(ip, who)).status).toBe(200);
        const [told] = (await list(who)).data;
        expect(told).toMatchObject({ kind: 'new_sign_in', readAt: null, link: '/api/logs/activity' });
        expect(told!.body).toContain(ip);
        expect(await kinds(who)).toHaveLength(1);
      });

      it('key_expiring: once per key, when it expires within 7 days', async () => {
        const who = await signUp(t);
        const now = Date.now();
        const key = async (name: string, inDays: number) => {
          const res = await as(who, 'POST', '/api/keys', {
            name,
            scopes: ['data:read'],
            expiresAt: new Date(now + inDays * DAY).toISOString(),
          });
          expect(res.status, await res.clone().text()).toBe(201);
          return ((await res.json()) as { key: { _id: string } }).key._id;
        };
        const soon = await key('soon', 5);
        const later = await key('later', 10);
        const task = keyExpiryNotices(t.server.app.notifier);
        await task.run(t.server.storage, new Date(now));
        await task.run(t.server.storage, new Date(now + 60_000));
        expect((await list(who)).data).toEqual([
          expect.objectContaining({ kind: 'key_expiring', link: `/api/keys/${soon}` }),
        ]);
        await task.run(t.server.storage, new Date(now + 4 * DAY));
        const told = (await list(who)).data.filter((n) => n.kind === 'key_expiring');
        expect(told.map((n) => n.link)).toEqual([`/api/keys/${later}`, `/api/keys/${soon}`]);
      });

      it('backup_failed: a backup that cannot be written tells the owner of its cluster', async () => {
        const who = await signUp(t);
        // A file where the backups' directory goes: the job cannot write its archive.
        const dir = join(t.dataDir, 'backups');
        await rm(dir, { recursive: true, force: true });
        writeFileSync(dir, '');
        try {
          const res = await as(who, 'POST', '/api/backups', {});
          expect(res.status, await res.clone().text()).toBe(202);
          await t.server.app.backupJobs.idle();
        } finally {
          await rm(dir, { force: true });
        }
        const [told] = (await list(who)).data;
        expect(told).toMatchObject({ kind: 'backup_failed', title: 'Backup failed' });
      });
    });

    describe('preferences', () => {
      it('answer every kind with its default, and keep what was changed', async () => {
        const who = await signUp(t);
        const res = await as(who, 'GET', '/api/notifications/preferences');
        const defaults = NotificationPreferences.parse(await res.json());
        expect(defaults.account_locked).toEqual({ inApp: true, email: true });
        expect(defaults.new_sign_in).toEqual({ inApp: true, email: false });
        const changed = await as(who, 'PUT', '/api/notifications/preferences', {
          backup_failed: { inApp: false, email: true },
        });
        expect(changed.status).toBe(200);
        const after = NotificationPreferences.parse(await changed.json());
        expect(after).toEqual({ ...defaults, backup_failed: { inApp: false, email: true } });
        const again = await as(who, 'GET', '/api/notifications/preferences');
        expect(await again.json()).toEqual(after);
      });

      it('refuse unknown kinds and incomplete channels', async () => {
        const who = await signUp(t);
        for (const body of [{ sms_sent: { inApp: true, email: true } }, { new_sign_in: { inApp: true } }])
          await expectError(
            await as(who, 'PUT', '/api/notifications/preferences', body),
            400,
            'validation_error',
          );
        await expectError(await as(who, 'PUT', '/api/notifications/preferences', []), 400, 'invalid_body');
        expect(
          (await as(who, 'GET', '/api/notifications/preferences').then((r) => r.json())).new_sign_in,
        ).toEqual({
          inApp: true,
          email: false,
        });
      });

      it('in-app off: not listed; e-mail on: the mail arrives', async () => {
        const who = await signUp(t);
        await as(who, 'PUT', '/api/notifications/preferences', {
          new_sign_in: { inApp: false, email: true },
        });
        const ip = newAddress();
        expect((await signInFrom(ip, who)).status).toBe(200);
        const mail = await sink.next(who.email);
        expect(mail.subject).toBe('New sign-in');
        expect(mail.text).toContain(ip);
        expect(await list(who)).toMatchObject({ data: [], total: 0, unread: 0 });
      });
    });

    describe('reading', () => {
      it('counts unread, filters them, marks one and all read, and deletes', async () => {
        const who = await signUp(t);
        for (const title of ['one', 'two', 'three']) await raise(who, title);
        const all = await list(who);
        expect(all).toMatchObject({ total: 3, unread: 3, limit: 50, skip: 0 });
        expect(all.data.map((n) => n.title)).toEqual(['three', 'two', 'one']);
        const read = await as(who, 'POST', `/api/notifications/${all.data[1]!._id}/read`);
        expect(read.status).toBe(200);
        const readAt = ((await read.json()) as Notification).readAt;
        expect(readAt).not.toBeNull();
        // Reading again keeps the first time.
        const twice = await as(who, 'POST', `/api/notifications/${all.data[1]!._id}/read`);
        expect(((await twice.json()) as Notification).readAt).toBe(readAt);
        const unread = await list(who, '?unread=true');
        expect(unread).toMatchObject({ total: 2, unread: 2 });
        expect(unread.data.map((n) => n.title)).toEqual(['three', 'one']);
        expect(await list(who, '?limit=1&skip=1')).toMatchObject({ total: 3, unread: 2, limit: 1, skip: 1 });
        const readAll = await as(who, 'POST', '/api/notifications/read-all');
        expect(await readAll.json()).toEqual({ read: 2 });
        expect(await list(who, '?unread=true')).toMatchObject({ data: [], total: 0, unread: 0 });
        const gone = await as(who, 'DELETE', `/api/notifications/${all.data[0]!._id}`);
        expect(await gone.json()).toEqual({ _id: all.data[0]!._id, deleted: true });
        expect((await list(who)).total).toBe(2);
        await expectError(
          await as(who, 'DELETE', `/api/notifications/${all.data[0]!._id}`),
          404,
          'not_found',
        );
      });

      it("answers 404 for another user's notification, and leaves it alone", async () => {
        const owner = await signUp(t);
        const stranger = await signUp(t);
        await raise(owner, 'private');
        const [mine] = (await list(owner)).data;
        await expectError(
          await as(stranger, 'POST', `/api/notifications/${mine!._id}/read`),
          404,
          'not_found',
        );
        await expectError(await as(stranger, 'DELETE', `/api/notifications/${mine!._id}`), 404, 'not_found');
        expect(await as(stranger, 'POST', '/api/notifications/read-all').then((r) => r.json())).toEqual({
          read: 0,
        });
        expect(await list(stranger)).toMatchObject({ total: 0, unread: 0 });
        expect(await list(owner)).toMatchObject({ total: 1, unread: 1 });
      });

      it('refuses an API key and a bad query', async () => {
        await expectError(await t.call('GET', '/api/notifications'), 401, 'unauthorized');
        const who = await signUp(t);
        for (const query of ['?unread=yes', '?limit=0', '?skip=-1'])
          await expectError(await as(who, 'GET', `/api/notifications${query}`), 400, 'validation_error');
      });
    });

    describe('the stream', () => {
      it('sends a notification raised after it opened, and resumes after Last-Event-ID', async () => {
        const who = await signUp(t);
        await raise(who, 'before');
        const [before] = (await list(who)).data;
        const open = (headers: Record<string, string> = {}) =>
          fetch(`${t.url}/api/notifications/stream`, { headers: { ...bearer(who.token), ...headers } });
        const res = await open();
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
        const reader = res.body!.getReader();
        await reader.read(); // the retry line: the stream is open, so what is raised next is after its start
        await raise(who, 'after');
        const event = await nextEvent(reader);
        expect(event.event).toBe('notification');
        expect(JSON.parse(event.data)).toMatchObject({ title: 'after', kind: 'backup_failed', readAt: null });
        await reader.cancel();
        const resumed = await open({ 'last-event-id': before!._id });
        const again = resumed.body!.getReader();
        expect(JSON.parse((await nextEvent(again)).data)).toMatchObject({ title: 'after' });
        await again.cancel();
      });
    });
  },
  {
    config: {
      smtpUrl: sink.url,
      trustedProxies: ['127.0.0.1'],
      authLimits: {
        signinsPerMinute: 1000,
        signupsPerHour: 1000,
        resetRequestsPerHour: 1000,
        lockAfterFailures: 3,
        lockMinutes: 15,
      },
    },
  },
);

/** Reads the stream up to its next event (comment and retry lines are skipped). */
async function nextEvent(
  reader: ReadableStreamDefaultReader<Uint8Array>,
): Promise<{ id: string; event: string; data: string }> {
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const blocks = text.split('\n\n');
    for (const block of blocks.slice(0, -1)) {
      const fields = Object.fromEntries(
        block
          .split('\n')
          .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
      );
      if (fields.event) return fields as { id: string; event: string; data: string };
    }
    text = blocks.at(-1)!;
    const { value, done } = await reader.read();
    if (done) throw new Error('the stream ended before an event');
    text += decoder.decode(value, { stream: true });
  }
}
