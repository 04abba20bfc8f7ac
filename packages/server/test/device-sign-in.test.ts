import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, forEachEngine, signUp, type TestServer } from './helpers.js';

interface Started {
  deviceCode: string;
  userCode: string;
  verificationUri: string;
  verificationUriComplete: string;
  expiresIn: number;
  interval: number;
}

async function expectError(res: Response, status: number, code: string) {
  const body = await res.json();
  expect({ status: res.status, code: body.code }).toEqual({ status, code });
  return body;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

function deviceCalls(server: () => TestServer) {
  const t = () => server();
  return {
    async start(): Promise<Started> {
      const res = await t().call('POST', '/api/auth/device', { key: null });
      expect(res.status).toBe(200);
      return (await res.json()) as Started;
    },
    poll: (deviceCode: string) =>
      t().call('POST', '/api/auth/device/token', { key: null, body: { deviceCode } }),
    decide: (verdict: 'approve' | 'deny', userCode: string, token: string) =>
      t().call('POST', `/api/auth/device/${verdict}`, {
        key: null,
        headers: bearer(token),
        body: { userCode },
      }),
    me: async (token: string) => {
      const res = await t().call('GET', '/api/auth/me', { key: null, headers: bearer(token) });
      expect(res.status).toBe(200);
      return ((await res.json()) as { user: { email: string } }).user.email;
    },
  };
}

// An interval of 1 second keeps the suite short; the default is 5 (docs/auth.md).
forEachEngine(
  (server) => {
    const device = deviceCalls(server);
    let t: TestServer;
    beforeAll(() => {
      t = server();
    });

    it('starts with a secret device code, a short code for people, and where to confirm it', async () => {
      const started = await device.start();
      expect(started.userCode).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
      expect(started.deviceCode).toMatch(/^[\w-]{43}$/);
      expect(started).toMatchObject({
        verificationUri: `${t.url}/device`,
        verificationUriComplete: `${t.url}/device?code=${started.userCode}`,
        expiresIn: 600,
        interval: 1,
      });
      // Only hashes are stored.
      const store = t.server.storage.deviceAuthorizations;
      expect(await store.find(started.deviceCode)).toBeNull();
      const record = await store.find(sha256(started.deviceCode));
      expect(record).toMatchObject({ status: 'pending', userId: null });
      expect(record!.userCodeHash).toBe(sha256(started.userCode.replace('-', '')));
    });

    it('answers authorization_pending while undecided, and slow_down with a longer interval when polled too soon', async () => {
      const { deviceCode } = await device.start();
      await expectError(await device.poll(deviceCode), 428, 'authorization_pending');
      const fast = await expectError(await device.poll(deviceCode), 400, 'slow_down');
      expect(fast.details).toEqual({ interval: 6 });
      // The next poll must now wait 6 seconds: one after 1.1 s is still too soon.
      await pause(1100);
      expect((await expectError(await device.poll(deviceCode), 400, 'slow_down')).details).toEqual({
        interval: 11,
      });
    });

    it('hands the approving user a session once; the code cannot be decided twice', async () => {
      const ada = await signUp(t);
      const { deviceCode, userCode } = await device.start();
      await expectError(await device.poll(deviceCode), 428, 'authorization_pending');
      // People may type the code in lower case and without the dash.
      const approved = await device.decide('approve', userCode.replace('-', '').toLowerCase(), ada.token);
      expect(approved.status).toBe(200);
      expect(await approved.json()).toEqual({ userCode, status: 'approved' });
      await expectError(await device.decide('deny', userCode, ada.token), 404, 'not_found');
      await pause(1050);
      const res = await device.poll(deviceCode);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const session = (await res.json()) as { token: string; user: { email: string } };
      expect(session.user.email).toBe(ada.email);
      expect(session.token).not.toBe(ada.token);
      expect(await device.me(session.token)).toBe(ada.email);
      await pause(1050);
      await expectError(await device.poll(deviceCode), 400, 'invalid_grant');
      expect(await t.server.storage.deviceAuthorizations.find(sha256(deviceCode))).toBeNull();
    });

    it('gives the session of whoever approved: another user approving gets a session of their own, never of someone else', async () => {
      const ada = await signUp(t);
      const bob = await signUp(t);
      const first = await device.start();
      const second = await device.start();
      expect((await device.decide('approve', first.userCode, bob.token)).status).toBe(200);
      expect((await device.decide('approve', second.userCode, ada.token)).status).toBe(200);
      const forFirst = (await (await device.poll(first.deviceCode)).json()) as { token: string };
      const forSecond = (await (await device.poll(second.deviceCode)).json()) as { token: string };
      expect(await device.me(forFirst.token)).toBe(bob.email);
      expect(await device.me(forSecond.token)).toBe(ada.email);
    });

    it('answers access_denied after a denial, then forgets the code', async () => {
      const ada = await signUp(t);
      const { deviceCode, userCode } = await device.start();
      const denied = await device.decide('deny', userCode, ada.token);
      expect(await denied.json()).toEqual({ userCode, status: 'denied' });
      await expectError(await device.decide('approve', userCode, ada.token), 404, 'not_found');
      await expectError(await device.poll(deviceCode), 403, 'access_denied');
      await expectError(await device.poll(deviceCode), 400, 'invalid_grant');
    });

    it('needs a session to decide, and refuses unknown codes and malformed bodies', async () => {
      const ada = await signUp(t);
      const { userCode } = await device.start();
      const withKey = await t.call('POST', '/api/auth/device/approve', { body: { userCode } });
      await expectError(withKey, 401, 'unauthorized');
      await expectError(await device.decide('approve', 'BCDF-GHJK', ada.token), 404, 'not_found');
      await expectError(await device.decide('approve', 'not a code', ada.token), 404, 'not_found');
      const noBody = await t.call('POST', '/api/auth/device/approve', {
        key: null,
        headers: bearer(ada.token),
        body: {},
      });
      await expectError(noBody, 400, 'validation_error');
      await expectError(await device.poll('made-up'), 400, 'invalid_grant');
      const noCode = await t.call('POST', '/api/auth/device/token', { key: null, body: {} });
      await expectError(noCode, 400, 'validation_error');
    });
  },
  { config: { deviceSignIn: { codeTtlSeconds: 600, pollIntervalSeconds: 1 } } },
);

describe('device codes that expire', () => {
  forEachEngine(
    (server) => {
      const device = deviceCalls(server);
      it('answers expired_token after the code lived its time, and the code can no longer be approved', async () => {
        const ada = await signUp(server());
        const { deviceCode, userCode, expiresIn } = await device.start();
        expect(expiresIn).toBe(1);
        await pause(1100);
        await expectError(await device.decide('approve', userCode, ada.token), 404, 'not_found');
        await expectError(await device.poll(deviceCode), 400, 'expired_token');
        await expectError(await device.poll(deviceCode), 400, 'invalid_grant');
      });
    },
    { config: { deviceSignIn: { codeTtlSeconds: 1, pollIntervalSeconds: 1 } } },
  );
});
