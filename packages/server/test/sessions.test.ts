import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { base64url, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAccountWithKey, type RunningServer, startServer } from '../src/index.js';
import { bearer, createTestDatabase, forEachEngine, signUp, type TestServer } from './helpers.js';

async function expectError(res: Response, status: number, code: string) {
  const body = await res.json();
  expect({ status: res.status, code: body.code }).toEqual({ status, code });
  return body;
}

forEachEngine((server) => {
  let t: TestServer;
  let key: Uint8Array;
  beforeAll(async () => {
    t = server();
    // The key the server made on first start and keeps in the database.
    key = Buffer.from(
      await t.server.storage.secrets.getOrCreate('session-signing-key', () => 'unused'),
      'base64url',
    );
  });

  const me = (token: string) => t.call('GET', '/api/auth/me', { key: null, headers: bearer(token) });

  /** A token with the claims the server issues, changed by `edit`, signed with `signingKey`. */
  async function forge(
    claims: { sub: string; sid: string },
    options: { exp?: number; alg?: string; signingKey?: Uint8Array } = {},
  ) {
    return new SignJWT({ sid: claims.sid })
      .setProtectedHeader({ alg: options.alg ?? 'HS256' })
      .setSubject(claims.sub)
      .setIssuer('dataplatform')
      .setAudience('dataplatform:session')
      .setIssuedAt()
      .setExpirationTime(options.exp ?? Math.floor(Date.now() / 1000) + 600)
      .sign(options.signingKey ?? key);
  }

  async function claimsOf(token: string) {
    const [, payload] = token.split('.');
    return JSON.parse(new TextDecoder().decode(base64url.decode(payload!))) as { sub: string; sid: string };
  }

  describe('session tokens', () => {
    it('are JWTs signed with HS256 that name the user and the session', async () => {
      const user = await signUp(t);
      const [header] = user.token.split('.');
      expect(JSON.parse(new TextDecoder().decode(base64url.decode(header!)))).toMatchObject({ alg: 'HS256' });
      const claims = await claimsOf(user.token);
      expect(claims.sub).toBe(user.user._id);
      // A token the test signs the same way is accepted: the checks below fail for the reason they name.
      expect((await me(await forge(claims))).status).toBe(200);
    });

    it('refuses a token whose payload was changed (another user’s id) with 401 unauthorized', async () => {
      const user = await signUp(t);
      const victim = await signUp(t);
      const [header, , signature] = user.token.split('.');
      const claims = { ...(await claimsOf(user.token)), sub: victim.user._id };
      const payload = base64url.encode(JSON.stringify(claims));
      await expectError(await me(`${header}.${payload}.${signature}`), 401, 'unauthorized');
    });

    it('refuses a token with a changed signature with 401 unauthorized', async () => {
      const user = await signUp(t);
      const flipped = user.token.slice(0, -2) + (user.token.endsWith('AA') ? 'BB' : 'AA');
      await expectError(await me(flipped), 401, 'unauthorized');
    });

    it('refuses an unsigned token (alg none) with 401 unauthorized', async () => {
      const user = await signUp(t);
      const claims = await claimsOf(user.token);
      const none = `${base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${base64url.encode(
        JSON.stringify({ ...claims, iss: 'dataplatform', aud: 'dataplatform:session', exp: 4102444800 }),
      )}.`;
      await expectError(await me(none), 401, 'unauthorized');
      await expectError(
        await t.call('GET', '/api/v1/data/notes', { key: null, headers: bearer(none) }),
        401,
        'unauthorized',
      );
    });

    it('refuses a token signed with another key, or with another algorithm, with 401 unauthorized', async () => {
      const user = await signUp(t);
      const claims = await claimsOf(user.token);
      const otherKey = crypto.getRandomValues(new Uint8Array(32));
      await expectError(await me(await forge(claims, { signingKey: otherKey })), 401, 'unauthorized');
      await expectError(await me(await forge(claims, { alg: 'HS512' })), 401, 'unauthorized');
    });

    it('refuses an expired token with 401 session_expired', async () => {
      const user = await signUp(t);
      const expired = await forge(await claimsOf(user.token), { exp: Math.floor(Date.now() / 1000) - 10 });
      await expectError(await me(expired), 401, 'session_expired');
    });

    it('refuses a well-signed token of a session that does not exist with 401 unauthorized', async () => {
      const user = await signUp(t);
      await expectError(
        await me(await forge({ sub: user.user._id, sid: 'ses_unknown' })),
        401,
        'unauthorized',
      );
    });
  });

  describe('session tokens on data routes', () => {
    it('act on the user’s default cluster with every data scope, and never on another tenant’s', async () => {
      const user = await signUp(t);
      const as = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
        t.call(method, path, { key: null, headers: { ...bearer(user.token), ...headers }, body });
      const created = await (await as('POST', '/api/v1/data/orders', { total: 5 })).json();
      expect((await as('GET', `/api/v1/data/orders/${created._id}`)).status).toBe(200);
      const sql = await as('POST', '/api/v1/data/sql', { sql: 'SELECT COUNT(*) FROM orders' });
      expect((await sql.json()).data).toEqual([{ count: 1 }]);
      const batch = await as('POST', '/api/v1/data/batch', {
        operations: [{ op: 'get', collection: 'orders', id: created._id }],
      });
      expect((await batch.json()).results[0].status).toBe(200);
      // The development key's cluster does not see the user's document.
      expect((await t.call('GET', `/api/v1/data/orders/${created._id}`)).status).toBe(404);
    });

    it('act on the cluster X-Cluster-Id names when the user owns it, and answer 403 forbidden otherwise', async () => {
      const user = await signUp(t);
      const as = (clusterId: string) =>
        t.call('GET', '/api/v1/data/orders', {
          key: null,
          headers: { ...bearer(user.token), 'x-cluster-id': clusterId },
        });
      const own = await t.server.storage.sessions.findForData((await claimsOf(user.token)).sid, null);
      expect((await as(own!.cluster!.id)).status).toBe(200);
      const forbidden = await expectError(await as(t.other.clusterId), 403, 'forbidden');
      expect(forbidden.error).toBe('No cluster of yours has this id');
      const unknown = await expectError(await as('cls_nope'), 403, 'forbidden');
      expect(unknown.error).toBe(forbidden.error);
    });

    it('are rate-limited per user at the plan’s tier, with the RateLimit headers', async () => {
      const user = await signUp(t);
      const res = await t.call('GET', '/api/v1/data/orders', { key: null, headers: bearer(user.token) });
      expect(res.headers.get('ratelimit-limit')).toBe('500');
      const second = await t.call('GET', '/api/v1/data/orders', { key: null, headers: bearer(user.token) });
      expect(Number(second.headers.get('ratelimit-remaining'))).toBe(
        Number(res.headers.get('ratelimit-remaining')) - 1,
      );
    });

    it('give way to an X-API-Key sent with them: the key decides', async () => {
      const user = await signUp(t);
      const res = await t.call('GET', '/api/v1/data/orders', { headers: bearer(user.token) });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBeNull(); // the development key is unlimited
    });
  });
});

describe('the signing key', () => {
  const dirs: string[] = [];
  const fresh = () => {
    const dir = mkdtempSync(join(tmpdir(), 'dataplatform-key-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('is required in production, with at least 32 characters', async () => {
    const base = { port: 0, host: '127.0.0.1', logLevel: 'silent', mode: 'production' as const };
    await expect(startServer({ ...base, dataDir: fresh(), sessionSecret: undefined })).rejects.toThrow(
      /DATAPLATFORM_SESSION_SECRET is required in production/,
    );
    await expect(startServer({ ...base, dataDir: fresh(), sessionSecret: 'short' })).rejects.toThrow(
      /at least 32 characters/,
    );
  });

  it('from the configuration verifies the tokens it signed, and no others once it changes', async () => {
    const secret = 'configured-session-secret-of-40-characters';
    const dataDir = fresh();
    const options = { port: 0, host: '127.0.0.1', logLevel: 'silent', dataDir };
    const a = await startServer({ ...options, sessionSecret: secret });
    let token: string;
    try {
      const res = await fetch(`${a.url}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'keyed@example.com', password: 'keyed long password', name: 'K' }),
      });
      token = (await res.json()).token;
      expect((await fetch(`${a.url}/api/auth/me`, { headers: bearer(token) })).status).toBe(200);
    } finally {
      await a.close();
    }
    // The same database under another secret: the session still exists, but its token no longer verifies.
    const b = await startServer({ ...options, sessionSecret: `${secret}-rotated` });
    try {
      const refused = await fetch(`${b.url}/api/auth/me`, { headers: bearer(token) });
      expect(refused.status).toBe(401);
      expect((await refused.json()).code).toBe('unauthorized');
    } finally {
      await b.close();
    }
  });
});

const postgres = Boolean(inject('postgresUrl'));

describe.skipIf(!postgres)('two instances on one PostgreSQL', () => {
  let a: RunningServer;
  let b: RunningServer;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const database = await createTestDatabase();
    const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'dataplatform-sessions-')));
    const servers = await Promise.all(
      dirs.map((dataDir) =>
        startServer({ port: 0, host: '127.0.0.1', logLevel: 'silent', dataDir, databaseUrl: database.url }),
      ),
    );
    [a, b] = servers as [RunningServer, RunningServer];
    cleanup = async () => {
      await Promise.all([a?.close(), b?.close()]);
      await database.drop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    };
  }, 60_000);
  afterAll(() => cleanup?.());

  it('accept each other’s tokens, and a logout through one ends the session on both', async () => {
    await createAccountWithKey(a.storage, {
      email: 'noise@example.com',
      name: 'N',
      password: 'long enough pw',
    });
    const res = await fetch(`${a.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'both@example.com', password: 'shared secret pw', name: 'Both' }),
    });
    const { token } = await res.json();
    expect((await fetch(`${b.url}/api/auth/me`, { headers: bearer(token) })).status).toBe(200);
    expect((await fetch(`${b.url}/api/auth/logout`, { method: 'POST', headers: bearer(token) })).status).toBe(
      200,
    );
    const after = await fetch(`${a.url}/api/auth/me`, { headers: bearer(token) });
    expect(after.status).toBe(401);
    expect((await after.json()).code).toBe('session_expired');
  });
});
