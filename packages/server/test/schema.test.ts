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

  describe('indexes', () => {
    const createIndex = (collection: string, body: unknown) =>
      as('POST', `/api/schema/collections/${collection}/indexes`, body);
    const count = async (collection: string) =>
      ((await (await withKey('GET', `/api/v1/data/${collection}?limit=1`)).json()) as { total: number })
        .total;
    async function expectUnique(res: Response, index: string, fields: string[]) {
      expect(res.status, await res.clone().text()).toBe(409);
      expect(await res.json()).toMatchObject({ code: 'unique_violation', details: { index, fields } });
    }

    describe('a unique index', () => {
      const c = 'accounts';
      beforeAll(async () => {
        for (const [_id, email] of [
          ['a1', 'one@example.com'],
          ['a2', 'two@example.com'],
        ])
          expect((await withKey('POST', `/api/v1/data/${c}`, { _id, email })).status).toBe(201);
        const res = await createIndex(c, { fields: [{ path: 'email' }], unique: true });
        expect(res.status, await res.clone().text()).toBe(202);
        expect(await res.json()).toMatchObject({
          kind: 'index.build',
          status: 'succeeded',
          input: { collection: c, name: 'email_asc', unique: true },
        });
      });

      it('is listed, ready, also in the collection list and for metadata keys', async () => {
        const list = await (await as('GET', `/api/schema/collections/${c}/indexes`)).json();
        expect(list).toEqual({
          data: [
            {
              name: 'email_asc',
              fields: [{ path: 'email', order: 'asc' }],
              unique: true,
              status: 'ready',
              createdAt: expect.any(String),
            },
          ],
        });
        const collections = (await (await as('GET', '/api/schema/collections')).json()) as {
          data: { name: string; indexes: unknown[] }[];
        };
        expect(collections.data.find((x) => x.name === c)!.indexes).toEqual(list.data);
        const meta = await newKey(owner, ['metadata:read']);
        const keyList = await t.call('GET', `/api/v1/schema/collections/${c}/indexes`, { key: meta });
        expect(await keyList.json()).toEqual(list);
      });

      it('refuses a create, a replace and a patch that repeat a value, writing nothing', async () => {
        await expectUnique(
          await withKey('POST', `/api/v1/data/${c}`, { _id: 'a3', email: 'one@example.com' }),
          'email_asc',
          ['email'],
        );
        await expectUnique(
          await withKey('PUT', `/api/v1/data/${c}/a2`, { email: 'one@example.com' }),
          'email_asc',
          ['email'],
        );
        await expectUnique(
          await withKey('PATCH', `/api/v1/data/${c}/a2`, { email: 'one@example.com' }),
          'email_asc',
          ['email'],
        );
        expect((await withKey('GET', `/api/v1/data/${c}/a3`)).status).toBe(404);
        expect(await (await withKey('GET', `/api/v1/data/${c}/a2`)).json()).toMatchObject({
          email: 'two@example.com',
        });
        expect(await count(c)).toBe(2);
        // Documents without the field never collide; another value is fine.
        expect((await withKey('POST', `/api/v1/data/${c}`, { _id: 'n1' })).status).toBe(201);
        expect((await withKey('POST', `/api/v1/data/${c}`, { _id: 'n2' })).status).toBe(201);
        expect((await withKey('PATCH', `/api/v1/data/${c}/a2`, { email: 'deux@example.com' })).status).toBe(
          200,
        );
      });

      it('fails the one batch operation that breaks it, and aborts a transactional batch', async () => {
        const res = await withKey('POST', '/api/v1/data/batch', {
          operations: [
            { op: 'insert', collection: c, data: { _id: 'b1', email: 'b1@example.com' } },
            { op: 'insert', collection: c, data: { _id: 'b2', email: 'one@example.com' } },
            { op: 'insert', collection: c, data: { _id: 'b3', email: 'b3@example.com' } },
            { op: 'patch', collection: c, id: 'b1', data: { email: 'b3@example.com' } },
          ],
        });
        expect(res.status).toBe(200);
        const { results } = (await res.json()) as { results: { status: number; error?: ErrorBody }[] };
        expect(results.map((r) => r.status)).toEqual([201, 409, 201, 409]);
        expect(results[1]!.error).toMatchObject({
          code: 'unique_violation',
          details: { index: 'email_asc' },
        });
        expect((await withKey('GET', `/api/v1/data/${c}/b2`)).status).toBe(404);

        const before = await count(c);
        const aborted = await withKey('POST', '/api/v1/data/batch', {
          transaction: true,
          operations: [
            { op: 'insert', collection: c, data: { _id: 't1', email: 't1@example.com' } },
            { op: 'insert', collection: c, data: { _id: 't2', email: 'two@example.com' } },
            { op: 'insert', collection: c, data: { _id: 't3', email: 'deux@example.com' } },
          ],
        });
        expect(aborted.status).toBe(409);
        expect(await aborted.json()).toMatchObject({
          code: 'transaction_aborted',
          details: { index: 2, status: 409, code: 'unique_violation' },
        });
        expect(await count(c)).toBe(before);
      });

      it('refuses the import row that breaks it', async () => {
        const body = [
          JSON.stringify({ _id: 'im1', email: 'im1@example.com' }),
          JSON.stringify({ _id: 'im2', email: 'one@example.com' }),
        ].join('\n');
        const res = await fetch(`${t.url}/api/v1/data/${c}/import?onError=skip`, {
          method: 'POST',
          headers: { 'x-api-key': dataKey, 'content-type': 'application/x-ndjson' },
          body,
        });
        const job = (await res.json()) as { counts: { inserted: number; failed: number }; errors: unknown[] };
        expect(job.counts).toMatchObject({ inserted: 1, failed: 1 });
        expect(job.errors).toEqual([expect.objectContaining({ line: 2, code: 'unique_violation' })]);
        expect((await withKey('GET', `/api/v1/data/${c}/im2`)).status).toBe(404);
      });

      it('lets exactly one of many concurrent writers of one value win', async () => {
        const writes = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            withKey('POST', `/api/v1/data/${c}`, { _id: `race${i}`, email: 'race@example.com' }),
          ),
        );
        const statuses = writes.map((r) => r.status).sort();
        expect(statuses.filter((s) => s === 201)).toHaveLength(1);
        expect(statuses.filter((s) => s === 409)).toHaveLength(19);
      });

      it('is refused a second time under its name, and by viewers', async () => {
        const again = await createIndex(c, { name: 'email_asc', fields: [{ path: 'other' }] });
        expect(again.status).toBe(409);
        expect(((await again.json()) as ErrorBody).code).toBe('conflict');
        const badPath = await createIndex(c, { fields: [{ path: 'a..b' }] });
        expect(badPath.status).toBe(400);
      });
    });

    it('of eight long paths is refused where the engine cannot hold its definition, with nothing left', async () => {
      const step = 'a'.repeat(40);
      const fields = Array.from({ length: 8 }, (_, i) => ({
        path: Array.from({ length: 8 }, (_, j) => `${step}${i}${j}`).join('.'),
        order: 'desc',
      }));
      const res = await createIndex('wide', { name: 'wide', fields });
      const listed = (await (await as('GET', '/api/schema/collections/wide/indexes')).json()) as {
        data: { name: string }[];
      };
      if (t.engine === 'postgres') {
        // PostgreSQL keeps an index's expressions in one catalog row of at most 8 kB.
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({ code: 'validation_error', details: { field: 'fields' } });
        expect(listed.data).toEqual([]);
      } else {
        expect(res.status).toBe(202);
        expect(listed.data.map((index) => index.name)).toEqual(['wide']);
      }
    });

    it('over documents that already share values fails, naming examples, with nothing left behind', async () => {
      const c = 'dups';
      for (const _id of ['d1', 'd2'])
        expect((await withKey('POST', `/api/v1/data/${c}`, { _id, code: 'same' })).status).toBe(201);
      const res = await createIndex(c, { name: 'by_code', fields: [{ path: 'code' }], unique: true });
      expect(res.status).toBe(202);
      const job = (await res.json()) as { status: string; failure: { code: string; message: string } };
      expect(job.status).toBe('failed');
      expect(job.failure.code).toBe('unique_violation');
      expect(job.failure.message).toContain('same');
      expect(await (await as('GET', `/api/schema/collections/${c}/indexes`)).json()).toEqual({ data: [] });
      expect((await withKey('POST', `/api/v1/data/${c}`, { _id: 'd3', code: 'same' })).status).toBe(201);
    });

    it("serve equality queries of the SQL helper, as the engine's own plan shows, until dropped", async () => {
      const c = 'orders';
      for (let chunk = 0; chunk < 3; chunk++) {
        const operations = Array.from({ length: 1000 }, (_, i) => {
          const n = chunk * 1000 + i;
          return {
            op: 'insert',
            collection: c,
            data: { customer: `c${n % 500}`, total: n, amount: n, nested: { tag: `t${n}` } },
          };
        });
        expect((await withKey('POST', '/api/v1/data/batch', { operations })).status).toBe(200);
      }
      const made = await createIndex(c, {
        name: 'by_customer',
        fields: [{ path: 'customer' }, { path: 'total', order: 'desc' }],
      });
      expect(((await made.json()) as { status: string }).status).toBe('succeeded');
      expect(
        ((await (await createIndex(c, { fields: [{ path: 'nested.tag' }] })).json()) as { status: string })
          .status,
      ).toBe('succeeded');
      const sql = (statement: string, params: unknown[]) =>
        withKey('POST', '/api/v1/data/sql', { sql: statement, params, explain: true });

      const byCustomer = (await (await sql('SELECT * FROM orders WHERE customer = ?', ['c7'])).json()) as {
        data: { customer: string }[];
        explain: { indexes: string[]; plan: string[] };
      };
      expect(byCustomer.data).toHaveLength(6);
      expect(byCustomer.data.every((d) => d.customer === 'c7')).toBe(true);
      expect(byCustomer.explain.indexes, byCustomer.explain.plan.join('\n')).toEqual(['by_customer']);

      const byTag = (await (await sql('SELECT _id FROM orders WHERE nested.tag = ?', ['t42'])).json()) as {
        data: unknown[];
        explain: { indexes: string[]; plan: string[] };
      };
      expect(byTag.data).toHaveLength(1);
      expect(byTag.explain.indexes, byTag.explain.plan.join('\n')).toEqual(['nested_tag_asc']);

      // Sorts on indexed paths read the index in order: no sort step in the engine's plan. The list route writes
      // its ORDER BY with the same builder.
      const sorted = (await (await sql('SELECT * FROM orders ORDER BY nested.tag LIMIT 3', [])).json()) as {
        data: { nested: { tag: string } }[];
        explain: { indexes: string[]; plan: string[] };
      };
      expect(sorted.data.map((d) => d.nested.tag)).toEqual(['t0', 't1', 't10']);
      // SQLite weighs reading the index against sorting by the average collection of the database (small here,
      // with the many collections of the other tests), and may sort; PostgreSQL reads the index.
      if (t.engine === 'postgres') {
        expect(sorted.explain.indexes, sorted.explain.plan.join('\n')).toEqual(['nested_tag_asc']);
        expect(sorted.explain.plan.join('\n')).not.toMatch(/Sort/);
      }
      const compound = (await (
        await sql('SELECT total FROM orders WHERE customer = ? ORDER BY total DESC LIMIT 2', ['c7'])
      ).json()) as { data: { total: number }[]; explain: { indexes: string[]; plan: string[] } };
      expect(compound.data.map((d) => d.total)).toEqual([2507, 2007]);
      expect(compound.explain.indexes, compound.explain.plan.join('\n')).toEqual(['by_customer']);
      expect(compound.explain.plan.join('\n')).not.toMatch(/TEMP B-TREE|Sort/);
      const listed = (await (await withKey('GET', `/api/v1/data/${c}?sort=nested.tag&limit=2`)).json()) as {
        data: { nested: { tag: string } }[];
      };
      expect(listed.data.map((d) => d.nested.tag)).toEqual(['t0', 't1']);

      const unindexed = (await (await sql('SELECT * FROM orders WHERE amount = ?', [42])).json()) as {
        data: unknown[];
        explain: { indexes: string[]; plan: string[] };
      };
      expect(unindexed.data).toHaveLength(1);
      // No index serves `amount` (PostgreSQL may still read the collection's rows through a partial index).
      expect(unindexed.explain.indexes).not.toContain('by_customer');
      expect(unindexed.explain.plan.join('\n')).not.toMatch(/(Cond|INDEX).*amount/);

      const dropped = await as('DELETE', `/api/schema/collections/${c}/indexes/by_customer`);
      expect(await dropped.json()).toEqual({ _id: 'by_customer', deleted: true });
      expect((await as('DELETE', `/api/schema/collections/${c}/indexes/by_customer`)).status).toBe(404);
      const after = (await (await sql('SELECT * FROM orders WHERE customer = ?', ['c7'])).json()) as {
        data: unknown[];
        explain: { indexes: string[] };
      };
      expect(after.data).toHaveLength(6);
      expect(after.explain.indexes).not.toContain('by_customer');

      // Built again under the same name, it serves again.
      const rebuilt = await createIndex(c, { name: 'by_customer', fields: [{ path: 'customer' }] });
      expect(((await rebuilt.json()) as { status: string }).status).toBe('succeeded');
      const again = (await (await sql('SELECT * FROM orders WHERE customer = ?', ['c7'])).json()) as {
        data: unknown[];
        explain: { indexes: string[]; plan: string[] };
      };
      expect(again.data).toHaveLength(6);
      expect(again.explain.indexes, again.explain.plan.join('\n')).toEqual(['by_customer']);
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
      const index = await asUser(
        t,
        viewer,
        'POST',
        `/api/schema/collections/things/indexes?clusterId=${clusterId}`,
        {
          fields: [{ path: 'a' }],
        },
      );
      expect(index.status).toBe(403);
      expect(
        (
          await asUser(
            t,
            developer,
            'POST',
            `/api/schema/collections/things/indexes?clusterId=${clusterId}`,
            {
              fields: [{ path: 'a' }],
            },
          )
        ).status,
      ).toBe(202);
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
