import { DataPlatform } from '@dataplatform/sdk';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachEngine, type TestServer } from './helpers.js';
import { type SmtpSink, startSmtpSink } from './smtp-sink.js';

const sink: SmtpSink = await startSmtpSink();
afterAll(() => sink.close());

/** The whole story of an account through the SDK against the reference server, with the reset mail over SMTP. */
forEachEngine(
  (server) => {
    let t: TestServer;
    beforeAll(() => {
      t = server();
    });

    it('signs up, signs in, reads profile and activity, resets a forgotten password and signs out everywhere', async () => {
      const client = new DataPlatform({ baseUrl: t.url, maxRetries: 0 });
      const email = `sdk-${t.engine}@example.com`;
      const signedUp = await client.auth.signUp({ email, password: 'first long password', name: 'SDK User' });
      expect(signedUp.user.email).toBe(email);

      const session = await client.auth.signIn(
        { email, password: 'first long password' },
        { storeToken: true },
      );
      expect(client.token).toBe(session.token);
      expect((await client.auth.me()).user).toEqual(signedUp.user);
      expect(await client.auth.profile()).toEqual(signedUp.user);
      expect(await client.auth.choosePlan('starter')).toMatchObject({ plan: 'starter', trialActive: true });
      expect(await client.data.create('notes', { text: 'mine' })).toMatchObject({ text: 'mine' });
      const actions: string[] = [];
      for await (const entry of client.logs.activity({ limit: 2 })) actions.push(entry.action);
      expect(actions).toEqual(['plan.selected', 'signin', 'signup']);

      expect(await client.auth.forgotPassword(email)).toEqual({ accepted: true });
      const mail = await sink.next(email);
      const token = decodeURIComponent(/token=(\S+)/.exec(mail.text)![1]!);
      expect(await client.auth.resetPassword({ token, password: 'second long password' })).toEqual({
        reset: true,
        sessionsEnded: 2,
      });
      await expect(client.auth.me()).rejects.toMatchObject({ status: 401, code: 'session_expired' });

      await client.auth.signIn({ email, password: 'second long password' }, { storeToken: true });
      const other = new DataPlatform({ baseUrl: t.url, maxRetries: 0 });
      await other.auth.signIn({ email, password: 'second long password' }, { storeToken: true });
      expect(await client.auth.logoutAll()).toEqual({ sessionsEnded: 2 });
      expect(client.token).toBeUndefined();
      await expect(other.auth.me()).rejects.toMatchObject({ code: 'session_expired' });
    });

    it('signs in with the development account of dev-credentials.json', async () => {
      const dev = t.server.devAccount!;
      const client = new DataPlatform({ baseUrl: t.url, maxRetries: 0 });
      const session = await client.auth.signIn(
        { email: dev.email, password: dev.password },
        { storeToken: true },
      );
      expect(session.user.email).toBe(dev.email);
      // The same cluster as the development key.
      const note = await client.data.create('shared', { by: 'session' });
      const viaKey = await t.call('GET', `/api/v1/data/shared/${note._id}`);
      expect(viaKey.status).toBe(200);
    });
  },
  { config: { smtpUrl: sink.url } },
);
