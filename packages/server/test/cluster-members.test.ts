import { ApiKeyWithSecret, ClusterMember, ClusterMemberList, Invitation } from '@dataplatform/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, createCluster, userOn } from './cluster-helpers.js';
import { forEachEngine, type SignedUp, signUp, type TestServer } from './helpers.js';
import { expectError } from './key-helpers.js';
import { type SmtpSink, startSmtpSink } from './smtp-sink.js';

const sink: SmtpSink = await startSmtpSink();
afterAll(() => sink.close());

forEachEngine(
  (server) => {
    let t: TestServer;
    let owner: SignedUp;
    let clusterId: string;
    beforeAll(async () => {
      t = server();
      owner = await userOn(t, 'team');
      clusterId = (await createCluster(t, owner, 'team room'))._id;
    });

    const as = (who: SignedUp, method: string, path: string, body?: unknown) =>
      asUser(t, who, method, path, body, { 'x-cluster-id': clusterId });
    const invite = async (email: string, role: string) => {
      const res = await as(owner, 'POST', `/api/clusters/${clusterId}/invitations`, { email, role });
      expect(res.status, await res.clone().text()).toBe(201);
      return Invitation.parse(await res.json());
    };
    /** The token of the invitation mailed to `email`, as received over SMTP. */
    const mailedToken = async (email: string) => {
      const mail = await sink.next(email);
      expect(mail.subject).toContain('team room');
      const link = /(http:\/\/app\.test\/clusters\/invitations\/accept\?token=\S+)/.exec(mail.text)?.[1];
      expect(link).toBeDefined();
      return new URL(link!).searchParams.get('token')!;
    };
    const accept = (who: SignedUp, token: string) =>
      asUser(t, who, 'POST', '/api/clusters/invitations/accept', { token });
    const join = async (role: string) => {
      const who = await signUp(t);
      await invite(who.email, role);
      const res = await accept(who, await mailedToken(who.email));
      expect(res.status).toBe(200);
      return who;
    };

    it('invites by e-mail over SMTP; the invited user joins with the role and sees the cluster', async () => {
      const who = await signUp(t);
      const invitation = await invite(who.email.toUpperCase(), 'developer');
      expect(invitation).toMatchObject({ clusterId, email: who.email, role: 'developer' });
      expect(Date.parse(invitation.expiresAt) - Date.parse(invitation.createdAt)).toBe(7 * 86_400_000);
      const res = await accept(who, await mailedToken(who.email));
      expect(ClusterMember.parse(await res.json())).toEqual({
        userId: who.user._id,
        email: who.email,
        role: 'developer',
      });
      const members = ClusterMemberList.parse(
        await (await as(who, 'GET', `/api/clusters/${clusterId}/members`)).json(),
      );
      expect(members.data[0]).toMatchObject({ userId: owner.user._id, role: 'owner' });
      expect(members.data.map((m) => m.userId)).toContain(who.user._id);
      expect((await as(who, 'POST', '/api/v1/data/orders', { total: 1 })).status).toBe(201);
    });

    it('refuses a used token, a token for another address and an unknown one (400)', async () => {
      const invited = await signUp(t);
      const stranger = await signUp(t);
      await invite(invited.email, 'viewer');
      const token = await mailedToken(invited.email);
      await expectError(await accept(stranger, token), 400, 'validation_error');
      expect((await accept(invited, token)).status).toBe(200);
      await expectError(await accept(invited, token), 400, 'validation_error');
      await expectError(await accept(invited, 'not-a-token'), 400, 'validation_error');
    });

    it('refuses an expired token (400)', async () => {
      const invited = await signUp(t);
      await invite(invited.email, 'viewer');
      const token = await mailedToken(invited.email);
      // Eight days on: the store is asked with that instant, as no test may wait for a week.
      const later = new Date(Date.now() + 8 * 86_400_000).toISOString();
      const { createHash } = await import('node:crypto');
      const outcome = await t.server.storage.clusters.accept(
        createHash('sha256').update(token).digest('base64url'),
        { id: invited.user._id, email: invited.email },
        later,
      );
      expect(outcome).toEqual({ ok: false, reason: 'expired' });
    });

    it('refuses to invite a member (409)', async () => {
      const member = await join('viewer');
      await expectError(
        await as(owner, 'POST', `/api/clusters/${clusterId}/invitations`, {
          email: member.email,
          role: 'admin',
        }),
        409,
        'conflict',
      );
    });

    it('keeps the last owner: no demotion, no leaving (409); with a second owner both work', async () => {
      const path = `/api/clusters/${clusterId}/members/${owner.user._id}`;
      await expectError(await as(owner, 'PATCH', path, { role: 'admin' }), 409, 'conflict');
      await expectError(await as(owner, 'DELETE', path), 409, 'conflict');
      const second = await join('admin');
      const promoted = await as(owner, 'PATCH', `/api/clusters/${clusterId}/members/${second.user._id}`, {
        role: 'owner',
      });
      expect(ClusterMember.parse(await promoted.json()).role).toBe('owner');
      // An admin may not unmake an owner, nor make one.
      const admin = await join('admin');
      await expectError(
        await as(admin, 'PATCH', `/api/clusters/${clusterId}/members/${second.user._id}`, { role: 'viewer' }),
        403,
        'forbidden',
      );
      const left = await as(second, 'DELETE', `/api/clusters/${clusterId}/members/${second.user._id}`);
      expect(left.status).toBe(200);
      await expectError(await as(second, 'GET', `/api/clusters/${clusterId}`), 404, 'not_found');
    });

    it("stops a removed member's keys at once (401) and caps a demoted member's keys to reading (403)", async () => {
      const dev = await join('developer');
      const createKey = async () => {
        const res = await as(dev, 'POST', '/api/keys', {
          name: 'k',
          scopes: ['data:read', 'data:write'],
          clusterId,
        });
        expect(res.status).toBe(201);
        return ApiKeyWithSecret.parse(await res.json()).secret;
      };
      const secret = await createKey();
      expect((await t.call('POST', '/api/v1/data/orders', { key: secret, body: { total: 1 } })).status).toBe(
        201,
      );
      const path = `/api/clusters/${clusterId}/members/${dev.user._id}`;
      expect((await as(owner, 'PATCH', path, { role: 'viewer' })).status).toBe(200);
      await expectError(
        await t.call('POST', '/api/v1/data/orders', { key: secret, body: { total: 1 } }),
        403,
        'forbidden',
      );
      expect((await t.call('GET', '/api/v1/data/orders', { key: secret })).status).toBe(200);
      expect((await as(owner, 'DELETE', path)).status).toBe(200);
      await expectError(await t.call('GET', '/api/v1/data/orders', { key: secret }), 401, 'unauthorized');
    });

    it('answers 404 for a member not in the cluster and for a cluster not the caller’s', async () => {
      const stranger = await userOn(t, 'team');
      await expectError(
        await as(owner, 'DELETE', `/api/clusters/${clusterId}/members/usr_nobody`),
        404,
        'not_found',
      );
      await expectError(await as(stranger, 'GET', `/api/clusters/${clusterId}/members`), 404, 'not_found');
    });
  },
  { config: { smtpUrl: sink.url, appUrl: 'http://app.test' } },
);

describe('invitations without SMTP', () => {
  it('are appended to <data dir>/outbox.jsonl', async () => {
    const { startTestServer } = await import('./helpers.js');
    const { invitationTokenFromOutbox } = await import('./cluster-helpers.js');
    const t = await startTestServer();
    try {
      const owner = await userOn(t, 'team');
      const cluster = await createCluster(t, owner, 'offline');
      const who = await signUp(t);
      const res = await asUser(t, owner, 'POST', `/api/clusters/${cluster._id}/invitations`, {
        email: who.email,
        role: 'viewer',
      });
      expect(res.status).toBe(201);
      expect(invitationTokenFromOutbox(t, who.email)).toMatch(/^[\w-]{43}$/);
    } finally {
      await t.stop();
    }
  }, 60_000);
});
