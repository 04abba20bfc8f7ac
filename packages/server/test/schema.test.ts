import { beforeAll, describe, expect, it } from 'vitest';
import { asUser, createCluster, memberAs, userOn } from './cluster-helpers.js';
import { forEachEngine, type SignedUp, signUp, type TestServer } from './helpers.js';

const SCHEMA = {
  type: 'object',
  required: ['email'],
  properties: {
    email: { type: 'string' },
    age: { type: 'integer', minimum: 0 },
  },
};

interface ErrorBody {
  code: string;
  error: string;
  details?: { errors?: { path: string; message: string }[] };
}

forEachEngine((server) => {
  let t: TestServer;
  let owner: SignedUp;
  /** A key of the owner's default cluster that may read and write data. */
  let dataKey: string;

  const as = (method: string, path: string, body?: unknown, headers = {}) =>
    asUser(t, owner, method, path, body, headers);
  const withKey = (method: string, path: string, body?: unknown) =>
    t.call(method, path, { key: dataKey, body });
  const putValidator = (collection: string, schema: unknown, level?: string) =>
    as('PUT', `/api/schema/collections/${collection}/validator`, level ? { schema, level } : { schema });
  const all = async (collection: string) =>
    (
      (await (await withKey('GET', `/api/v1/data/${collection}?limit=1000`)).json()) as {
        data: Record<string, unknown>[];
        total: number;
      }
    ).data;

  async function newKey(who: SignedUp, scopes: string[], headers = {}): Promise<string> {
    const made = await asUser(
      t,
      who,
      'POST',
      '/api/keys',
      { name: `k-${scopes.join('-')}`, scopes },
      headers,
    );
    expect(made.status, await made.clone().text()).toBe(201);
    return ((await made.json()) as { secret: string }).secret;
  }

  beforeAll(async () => {
    t = server();
    owner = await signUp(t);
    dataKey = await newKey(owner, ['data:read', 'data:write']);
  });

  describe('validators', () => {
    it('are set, read, listed and removed', async () => {
      const put = await putValidator('people', SCHEMA);
      expect(put.status, await put.clone().text()).toBe(200);
      const stored = await put.json();
      expect(stored).toMatchObject({ collection: 'people', schema: SCHEMA, level: 'strict' });

      const got = await as('GET', '/api/schema/collections/people/validator');
      expect(got.status).toBe(200);
      expect(await got.json()).toEqual(stored);

      expect((await withKey('POST', '/api/v1/data/people', { email: 'a@example.com' })).status).toBe(201);
      const list = (await (await as('GET', '/api/schema/collections')).json()) as {
        data: { name: string; documentCount: number; storageBytes: number; validation: unknown }[];
      };
      const people = list.data.find((c) => c.name === 'people')!;
      expect(people).toMatchObject({ documentCount: 1, validation: { level: 'strict', schema: SCHEMA } });
      expect(people.storageBytes).toBeGreaterThan(0);

      const removed = await as('DELETE', '/api/schema/collections/people/validator');
      expect(await removed.json()).toEqual({ collection: 'people', deleted: true });
      expect((await as('GET', '/api/schema/collections/people/validator')).status).toBe(404);
      expect((await as('DELETE', '/api/schema/collections/people/validator')).status).toBe(404);
      // Without a validator, anything goes again.
      expect((await withKey('POST', '/api/v1/data/people', { name: 'no email' })).status).toBe(201);
    });

    it('refuse a schema that is not JSON Schema, with the library message', async () => {
      const res = await putValidator('bad', { type: 'nope' });
      expect(res.status).toBe(400);
      const body = (await res.json()) as ErrorBody;
      expect(body.code).toBe('validation_error');
      expect(body.error).toMatch(/Invalid JSON Schema/);
      expect((await as('GET', '/api/schema/collections/bad/validator')).status).toBe(404);
    });

    it('with level off are kept but not enforced', async () => {
      expect((await putValidator('loose', SCHEMA, 'off')).status).toBe(200);
      expect((await withKey('POST', '/api/v1/data/loose', { nothing: true })).status).toBe(201);
    });
  });

  describe('a strict validator refuses, with nothing written,', () => {
    const c = 'members';
    beforeAll(async () => {
      expect((await putValidator(c, SCHEMA)).status).toBe(200);
      expect(
        (await withKey('POST', `/api/v1/data/${c}`, { _id: 'm1', email: 'm1@example.com' })).status,
      ).toBe(201);
    });

    async function expectViolation(res: Response, path: string) {
      expect(res.status, await res.clone().text()).toBe(400);
      const body = (await res.json()) as ErrorBody;
      expect(body.code).toBe('schema_violation');
      expect(body.details!.errors).toContainEqual({ path, message: expect.any(String) });
    }

    it('a create', async () => {
      await expectViolation(await withKey('POST', `/api/v1/data/${c}`, { _id: 'x1', age: 3 }), '/email');
      await expectViolation(
        await withKey('POST', `/api/v1/data/${c}`, { email: 'a@example.com', age: -1 }),
        '/age',
      );
      expect((await withKey('GET', `/api/v1/data/${c}/x1`)).status).toBe(404);
      expect((await all(c)).map((d) => d._id)).toEqual(['m1']);
    });

    it('a replace', async () => {
      await expectViolation(await withKey('PUT', `/api/v1/data/${c}/m1`, { age: 5 }), '/email');
      expect(await (await withKey('GET', `/api/v1/data/${c}/m1`)).json()).toMatchObject({
        email: 'm1@example.com',
      });
    });

    it('a patch, on the merged document', async () => {
      await expectViolation(await withKey('PATCH', `/api/v1/data/${c}/m1`, { email: null }), '/email');
      await expectViolation(await withKey('PATCH', `/api/v1/data/${c}/m1`, { age: 'old' }), '/age');
      const doc = (await (await withKey('GET', `/api/v1/data/${c}/m1`)).json()) as Record<string, unknown>;
      expect(doc).toMatchObject({ email: 'm1@example.com' });
      expect(doc.age).toBeUndefined();
      // A patch that keeps the document valid goes through.
      expect((await withKey('PATCH', `/api/v1/data/${c}/m1`, { age: 30 })).status).toBe(200);
    });

    it('an operation of a batch, which fails alone', async () => {
      const res = await withKey('POST', '/api/v1/data/batch', {
        operations: [
          { op: 'insert', collection: c, data: { _id: 'b1', email: 'b1@example.com' } },
          { op: 'insert', collection: c, data: { _id: 'b2' } },
          { op: 'update', collection: c, id: 'm1', data: { age: 1 } },
          { op: 'patch', collection: c, id: 'm1', data: { email: 7 } },
          { op: 'insert', collection: 'elsewhere', data: { free: true } },
        ],
      });
      expect(res.status).toBe(200);
      const { results } = (await res.json()) as { results: { status: number; error?: ErrorBody }[] };
      expect(results.map((r) => r.status)).toEqual([201, 400, 400, 400, 201]);
      for (const failed of results.slice(1, 4)) expect(failed.error!.code).toBe('schema_violation');
      expect(results[1]!.error!.details!.errors).toContainEqual({
        path: '/email',
        message: expect.any(String),
      });
      expect((await all(c)).map((d) => d._id).sort()).toEqual(['b1', 'm1']);
      expect(await (await withKey('GET', `/api/v1/data/${c}/m1`)).json()).toMatchObject({
        email: 'm1@example.com',
        age: 30,
      });
    });

    it('a transactional batch, as a whole', async () => {
      const res = await withKey('POST', '/api/v1/data/batch', {
        transaction: true,
        operations: [
          { op: 'insert', collection: c, data: { _id: 't1', email: 't1@example.com' } },
          { op: 'patch', collection: c, id: 'm1', data: { email: null } },
        ],
      });
      expect(res.status).toBe(409);
      expect(await res.json()).toMatchObject({
        code: 'transaction_aborted',
        details: { index: 1, status: 400, code: 'schema_violation' },
      });
      expect((await withKey('GET', `/api/v1/data/${c}/t1`)).status).toBe(404);
    });

    it('a row of an import', async () => {
      const body = [
        JSON.stringify({ _id: 'i1', email: 'i1@example.com' }),
        JSON.stringify({ _id: 'i2', age: 4 }),
        JSON.stringify({ _id: 'i3', email: 'i3@example.com' }),
      ].join('\n');
      const res = await fetch(`${t.url}/api/v1/data/${c}/import?onError=skip`, {
        method: 'POST',
        headers: { 'x-api-key': dataKey, 'content-type': 'application/x-ndjson' },
        body,
      });
      expect(res.status).toBe(202);
      const job = (await res.json()) as {
        status: string;
        counts: { inserted: number; failed: number };
        errors: { line: number; code: string }[];
      };
      expect(job.status).toBe('succeeded');
      expect(job.counts).toMatchObject({ inserted: 2, failed: 1 });
      expect(job.errors).toEqual([expect.objectContaining({ line: 2, code: 'schema_violation' })]);
      expect((await withKey('GET', `/api/v1/data/${c}/i2`)).status).toBe(404);
      expect((await withKey('GET', `/api/v1/data/${c}/i3`)).status).toBe(200);
    });

    it('a bad write among concurrent good ones, which all commit', async () => {
      const writes = await Promise.all([
        ...Array.from({ length: 8 }, (_, i) =>
          withKey('POST', `/api/v1/data/${c}`, { _id: `g${i}`, email: `g${i}@example.com` }),
        ),
        withKey('PATCH', `/api/v1/data/${c}/m1`, { email: false }),
        withKey('POST', `/api/v1/data/${c}`, { _id: 'bad', email: 1 }),
      ]);
      expect(writes.map((r) => r.status)).toEqual([...Array(8).fill(201), 400, 400]);
      expect((await withKey('GET', `/api/v1/data/${c}/g7`)).status).toBe(200);
      expect((await withKey('GET', `/api/v1/data/${c}/bad`)).status).toBe(404);
    });
  });

  describe('authorization', () => {
    let clusterId: string;
    let viewer: SignedUp;
    let developer: SignedUp;
    beforeAll(async () => {
      const lead = await userOn(t, 'team');
      clusterId = (await createCluster(t, lead, 'shared'))._id;
      viewer = await memberAs(t, lead, clusterId, 'viewer');
      developer = await memberAs(t, lead, clusterId, 'developer');
    });

    it('lets a developer set a validator of a cluster it names, and a viewer only read it', async () => {
      const path = `/api/schema/collections/things/validator?clusterId=${clusterId}`;
      const set = await asUser(t, developer, 'PUT', path, { schema: SCHEMA });
      expect(set.status, await set.clone().text()).toBe(200);
      expect((await asUser(t, viewer, 'GET', path)).status).toBe(200);
      const refused = await asUser(t, viewer, 'PUT', path, { schema: {} });
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({
        code: 'forbidden',
        details: { role: 'viewer', action: 'schema' },
      });
      expect((await asUser(t, viewer, 'DELETE', path)).status).toBe(403);
      // The validator is the named cluster's, not the default cluster's of the caller.
      expect((await asUser(t, developer, 'GET', '/api/schema/collections/things/validator')).status).toBe(
        404,
      );
    });

    it('answers 404 for a cluster the caller is no member of, and 401 to an API key', async () => {
      const res = await as('GET', `/api/schema/collections?clusterId=${clusterId}`);
      expect(res.status).toBe(404);
      expect((await t.call('GET', '/api/schema/collections', { key: dataKey })).status).toBe(401);
    });

    it('gives keys with metadata:read the read-only routes of their cluster', async () => {
      const meta = await newKey(owner, ['metadata:read']);
      const list = await t.call('GET', '/api/v1/schema/collections', { key: meta });
      expect(list.status).toBe(200);
      const names = ((await list.json()) as { data: { name: string }[] }).data.map((c) => c.name);
      expect(names).toContain('members');
      const got = await t.call('GET', '/api/v1/schema/collections/members/validator', { key: meta });
      expect(await got.json()).toMatchObject({ collection: 'members', schema: SCHEMA });
      const denied = await t.call('GET', '/api/v1/schema/collections', { key: dataKey });
      expect(denied.status).toBe(403);
      expect(((await denied.json()) as ErrorBody).code).toBe('insufficient_scope');
      // A metadata key cannot write documents.
      expect((await t.call('POST', '/api/v1/data/members', { key: meta, body: { email: 'x' } })).status).toBe(
        403,
      );
    });
  });
});
