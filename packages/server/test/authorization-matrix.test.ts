import { beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../src/auth/api-key.js';
import type { KeyService } from '../src/index.js';
import { bearer, forEachEngine, type TestServer } from './helpers.js';
import { keyService, newAccount } from './key-helpers.js';

/**
 * The authorization matrix: every data route × every credential state that API keys give, each with the exact
 * status and code, and the session token a signed-in user holds, which acts on that user's own cluster.
 */

type Expected = { status: number; code?: string; batchStatus?: number };

interface Route {
  id: string;
  /** A scope that lets a key call the route, and the request, given a fresh document of the home cluster. */
  scope: string;
  request(docId: string): { method: string; path: string; body?: unknown };
  /** The answer with a working key of the home cluster. */
  success: Expected;
  /** The answer with a working key of another cluster, aimed at the home cluster's document. */
  otherCluster: Expected;
}

const C = 'matrix';

const ROUTES: Route[] = [
  {
    id: 'data.list',
    scope: 'data:read',
    request: () => ({ method: 'GET', path: `/api/v1/data/${C}` }),
    success: { status: 200 },
    otherCluster: { status: 200 }, // its own, empty collection of that name: checked in "tenant isolation"
  },
  {
    id: 'data.create',
    scope: 'data:write',
    request: () => ({ method: 'POST', path: `/api/v1/data/${C}`, body: { v: 1 } }),
    success: { status: 201 },
    otherCluster: { status: 201 }, // into its own cluster
  },
  {
    id: 'data.get',
    scope: 'data:read',
    request: (id) => ({ method: 'GET', path: `/api/v1/data/${C}/${id}` }),
    success: { status: 200 },
    otherCluster: { status: 404, code: 'not_found' },
  },
  {
    id: 'data.replace',
    scope: 'data:write',
    request: (id) => ({ method: 'PUT', path: `/api/v1/data/${C}/${id}`, body: { v: 2 } }),
    success: { status: 200 },
    otherCluster: { status: 404, code: 'not_found' },
  },
  {
    id: 'data.update',
    scope: 'database:write',
    request: (id) => ({ method: 'PATCH', path: `/api/v1/data/${C}/${id}`, body: { v: 3 } }),
    success: { status: 200 },
    otherCluster: { status: 404, code: 'not_found' },
  },
  {
    id: 'data.delete',
    scope: 'data:write',
    request: (id) => ({ method: 'DELETE', path: `/api/v1/data/${C}/${id}` }),
    success: { status: 200 },
    otherCluster: { status: 404, code: 'not_found' },
  },
  {
    id: 'data.sql',
    scope: 'query:execute',
    request: (id) => ({
      method: 'POST',
      path: '/api/v1/data/sql',
      body: { sql: `SELECT * FROM ${C} WHERE _id = ?`, params: [id] },
    }),
    success: { status: 200 },
    otherCluster: { status: 200 }, // no rows: checked in "tenant isolation"
  },
  {
    id: 'data.batch',
    scope: 'data:read',
    request: (id) => ({
      method: 'POST',
      path: '/api/v1/data/batch',
      body: { operations: [{ op: 'get', collection: C, id }] },
    }),
    success: { status: 200, batchStatus: 200 },
    otherCluster: { status: 200, batchStatus: 404 },
  },
];

type State =
  | 'none'
  | 'malformed'
  | 'unknown'
  | 'active with the scope'
  | 'active without the scope'
  | 'paused'
  | 'resumed'
  | 'rotated, old secret'
  | 'rotated, new secret'
  | 'deleted'
  | 'expired'
  | 'key of another cluster'
  | 'session token';

const unauthorized: Expected = { status: 401, code: 'unauthorized' };

/** The expected answer of each state on a route. */
const EXPECTED: Record<State, (route: Route) => Expected> = {
  none: () => unauthorized,
  malformed: () => unauthorized,
  unknown: () => unauthorized,
  'active with the scope': (route) => route.success,
  'active without the scope': () => ({ status: 403, code: 'insufficient_scope' }),
  paused: () => ({ status: 401, code: 'key_paused' }),
  resumed: (route) => route.success,
  'rotated, old secret': () => unauthorized,
  'rotated, new secret': (route) => route.success,
  deleted: () => unauthorized,
  expired: () => ({ status: 401, code: 'key_expired' }),
  'key of another cluster': (route) => route.otherCluster,
  // The home user's own session token: every data route, on their own (the home) cluster's documents.
  'session token': (route) => route.success,
};

const DATA_SCOPES = ['data:read', 'data:write', 'query:execute'];

forEachEngine((server) => {
  let t: TestServer;
  let keys: KeyService;
  /** The home cluster's all-scopes key, which makes the documents each row acts on. */
  let admin: string;
  /** The key (secret, or `null` for no credential) of each state; "with the scope" is chosen per route. */
  const credentials = new Map<State, string | null>();
  const byScope = new Map<string, string>();
  /** The home user's session token, sent as `Authorization: Bearer`. */
  let sessionToken: string;

  beforeAll(async () => {
    t = server();
    keys = keyService(t);
    const password = 'matrix password, long enough';
    const email = `matrix-${Math.random().toString(36).slice(2)}@example.com`;
    const home = await newAccount(t, { plan: 'team', email, password });
    admin = home.apiKey;
    const make = async (scopes: string[]) =>
      (await keys.create(home.owner, { name: 'matrix', scopes })).secret;
    for (const route of ROUTES)
      if (!byScope.has(route.scope)) byScope.set(route.scope, await make([route.scope]));

    const paused = await keys.create(home.owner, { name: 'paused', scopes: DATA_SCOPES });
    await keys.pause(home.owner, paused.key._id);
    const resumed = await keys.create(home.owner, { name: 'resumed', scopes: DATA_SCOPES });
    await keys.pause(home.owner, resumed.key._id);
    await keys.resume(home.owner, resumed.key._id);
    const rotated = await keys.create(home.owner, { name: 'rotated', scopes: DATA_SCOPES });
    const rotation = await keys.rotate(home.owner, rotated.key._id);
    const deleted = await keys.create(home.owner, { name: 'deleted', scopes: DATA_SCOPES });
    await keys.delete(home.owner, deleted.key._id);
    const expired = await keyService(t, () => Date.now() - 31 * 86_400_000).create(home.owner, {
      name: 'expired',
      scopes: DATA_SCOPES,
      expiresIn: '30d',
    });
    const other = await newAccount(t, { plan: 'team' });

    credentials.set('none', null);
    credentials.set('malformed', 'svc_not-a-key');
    credentials.set('unknown', generateApiKey().secret);
    credentials.set('active without the scope', await make(['metadata:read', 'logs:read']));
    credentials.set('paused', paused.secret);
    credentials.set('resumed', resumed.secret);
    credentials.set('rotated, old secret', rotated.secret);
    credentials.set('rotated, new secret', rotation.secret);
    credentials.set('deleted', deleted.secret);
    credentials.set('expired', expired.secret);
    credentials.set('key of another cluster', other.apiKey);
    const signIn = await t.call('POST', '/api/auth/signin', {
      key: null,
      body: { email, password },
    });
    expect(signIn.status).toBe(200);
    sessionToken = ((await signIn.json()) as { token: string }).token;
  }, 60_000);

  async function freshDocument(collection = C): Promise<string> {
    const res = await t.call('POST', `/api/v1/data/${collection}`, { key: admin, body: { v: 0 } });
    expect(res.status).toBe(201);
    return ((await res.json()) as { _id: string })._id;
  }

  const rows = ROUTES.flatMap((route) =>
    (Object.keys(EXPECTED) as State[]).map((state) => ({ route, state, expected: EXPECTED[state](route) })),
  );

  it.each(rows.map((row) => [`${row.route.id} × ${row.state}`, row] as const))('%s', async (_name, row) => {
    const docId = await freshDocument();
    const key =
      row.state === 'active with the scope'
        ? byScope.get(row.route.scope)!
        : (credentials.get(row.state) as string | null);
    const { method, path, body } = row.route.request(docId);
    const res =
      row.state === 'session token'
        ? await t.call(method, path, { key: null, body, headers: bearer(sessionToken) })
        : await t.call(method, path, { key, body });
    const answer = (await res.json()) as { code?: string; results?: { status: number }[] };
    expect({ status: res.status, code: answer.code, batchStatus: answer.results?.[0]?.status }).toEqual({
      status: row.expected.status,
      code: row.expected.code,
      batchStatus: row.expected.batchStatus,
    });
  });

  describe('tenant isolation', () => {
    it('never lets a key read or write documents of another cluster, including through SQL and batch', async () => {
      const outsider = credentials.get('key of another cluster')!;
      // A collection the other cluster never wrote to, so that any row it sees could only be the home cluster's.
      const I = 'isolated';
      const docId = await freshDocument(I);
      const sql = (statement: string, params: unknown[] = []) =>
        t.call('POST', '/api/v1/data/sql', { key: outsider, body: { sql: statement, params } });
      expect(
        ((await (await sql(`SELECT * FROM ${I} WHERE _id = ?`, [docId])).json()) as { data: unknown[] }).data,
      ).toEqual([]);
      expect(((await (await sql(`SELECT COUNT(*) FROM ${I}`)).json()) as { data: unknown[] }).data).toEqual([
        { count: 0 },
      ]);
      expect(await (await t.call('GET', `/api/v1/data/${I}`, { key: outsider })).json()).toMatchObject({
        data: [],
        total: 0,
      });

      const writes = [
        { op: 'update', collection: I, id: docId, data: { v: 'stolen' } },
        { op: 'patch', collection: I, id: docId, data: { v: 'stolen' } },
        { op: 'delete', collection: I, id: docId },
      ];
      const separate = await t.call('POST', '/api/v1/data/batch', {
        key: outsider,
        body: { operations: writes },
      });
      expect(
        ((await separate.json()) as { results: { status: number }[] }).results.map((r) => r.status),
      ).toEqual([404, 404, 404]);
      const atomic = await t.call('POST', '/api/v1/data/batch', {
        key: outsider,
        body: { operations: writes, transaction: true },
      });
      expect(atomic.status).toBe(409);
      expect(await atomic.json()).toMatchObject({
        code: 'transaction_aborted',
        details: { index: 0, status: 404 },
      });
      // Writing the same id lands in the outsider's own cluster.
      const insert = await t.call('POST', '/api/v1/data/batch', {
        key: outsider,
        body: { operations: [{ op: 'insert', collection: I, data: { _id: docId, v: 'theirs' } }] },
      });
      expect(((await insert.json()) as { results: { status: number }[] }).results[0]!.status).toBe(201);
      for (const method of ['PUT', 'PATCH'] as const)
        expect(
          (await t.call(method, `/api/v1/data/${I}/${docId}`, { key: outsider, body: { v: 'x' } })).status,
        ).toBe(200);

      const mine = await t.call('GET', `/api/v1/data/${I}/${docId}`, { key: admin });
      expect(await mine.json()).toMatchObject({ _id: docId, v: 0 });
      const theirs = await t.call('GET', `/api/v1/data/${I}/${docId}`, { key: outsider });
      expect(await theirs.json()).toMatchObject({ _id: docId, v: 'x' });
    });
  });
});
