import { beforeAll, describe, expect, it } from 'vitest';
import { asUser, createCluster, memberAs, userOn } from './cluster-helpers.js';
import { forEachEngine, type SignedUp, signUp, type TestServer } from './helpers.js';

const SCHEMA = {
  type: 'object',
  required: ['email'],
  properties: { email: { type: 'string' }, age: { type: 'integer' } },
};

interface JobAnswer {
  _id: string;
  kind: string;
  status: string;
  progress: { done: number; total: number | null };
  result: {
    checked: number;
    failing: number;
    samples: { _id: string; errors: { path: string; message: string }[] }[];
  } | null;
  counts: { rows: number };
  failure: { code: string; message: string } | null;
}

forEachEngine((server) => {
  let t: TestServer;
  let owner: SignedUp;
  let dataKey: string;

  const as = (method: string, path: string, body?: unknown) => asUser(t, owner, method, path, body);
  const withKey = (method: string, path: string, body?: unknown, key = dataKey) =>
    t.call(method, path, { key, body });
  const job = async (id: string) => (await (await as('GET', `/api/jobs/${id}`)).json()) as JobAnswer;
  /** Waits for the schema jobs this server runs, then reads the job. */
  const finished = async (answer: Response) => {
    expect(answer.status, await answer.clone().text()).toBe(202);
    const started = (await answer.json()) as JobAnswer;
    await t.server.app.schemaJobs.idle();
    return job(started._id);
  };
  const insertMany = async (collection: string, documents: Record<string, unknown>[]) => {
    for (let i = 0; i < documents.length; i += 1000) {
      const operations = documents.slice(i, i + 1000).map((data) => ({ op: 'insert', collection, data }));
      const res = await withKey('POST', '/api/v1/data/batch', { operations });
      expect(res.status, await res.clone().text()).toBe(200);
    }
  };

  beforeAll(async () => {
    t = server();
    owner = await signUp(t);
    const made = await as('POST', '/api/keys', {
      name: 'data',
      scopes: ['data:read', 'data:write', 'metadata:read'],
    });
    dataKey = ((await made.json()) as { secret: string }).secret;
  });

  describe('a validator check', () => {
    it('counts and samples the stored documents that do not match, across chunks', async () => {
      // Stored before the validator: three of every four documents match.
      const documents = Array.from({ length: 1200 }, (_, i) =>
        i % 4 === 0 ? { age: i } : { email: `u${i}@example.com`, age: i },
      );
      for (let i = 0; i < documents.length; i += 400)
        await insertMany('checked', documents.slice(i, i + 400));
      expect((await as('PUT', '/api/schema/collections/checked/validator', { schema: SCHEMA })).status).toBe(
        200,
      );

      const done = await finished(await as('POST', '/api/schema/collections/checked/validator/check'));
      expect(done).toMatchObject({ kind: 'validator.check', status: 'succeeded', failure: null });
      expect(done.result!.checked).toBe(1200);
      expect(done.result!.failing).toBe(300);
      expect(done.result!.samples).toHaveLength(20);
      expect(done.result!.samples[0]!.errors).toEqual([expect.objectContaining({ path: '/email' })]);
      expect(done.progress).toEqual({ done: 1200, total: 1200 });
    });

    it('is 404 without a validator, and 403 for a viewer', async () => {
      const none = await as('POST', '/api/schema/collections/unvalidated/validator/check');
      expect(none.status).toBe(404);
      const lead = await userOn(t, 'team');
      const clusterId = (await createCluster(t, lead, 'check-roles'))._id;
      const viewer = await memberAs(t, lead, clusterId, 'viewer');
      const denied = await asUser(
        t,
        viewer,
        'POST',
        `/api/schema/collections/checked/validator/check?clusterId=${clusterId}`,
      );
      expect(denied.status).toBe(403);
    });
  });

  describe('infer', () => {
    it('proposes a schema every sampled document matches, which then validates them', async () => {
      await insertMany('inferred', [
        { name: 'a', price: 1, tags: ['x'], address: { city: 'Oslo' } },
        { name: 'b', price: 2.5, tags: [], address: { city: 'Bergen', zip: '5003' }, note: null },
      ]);
      const res = await as('GET', '/api/schema/collections/inferred/infer?sample=10');
      expect(res.status).toBe(200);
      const { sampled, schema } = (await res.json()) as { sampled: number; schema: Record<string, unknown> };
      expect(sampled).toBe(2);
      expect(schema).toMatchObject({
        type: 'object',
        required: expect.arrayContaining(['name', 'price', 'tags', 'address']),
        properties: {
          name: { type: 'string' },
          price: { type: 'number' },
          tags: { type: 'array', items: { type: 'string' } },
          address: { type: 'object', required: ['city'] },
          note: { type: 'null' },
        },
      });
      expect((schema.required as string[]).includes('note')).toBe(false);
      // The proposal is a valid validator that the stored documents pass.
      expect((await as('PUT', '/api/schema/collections/inferred/validator', { schema })).status).toBe(200);
      const check = await finished(await as('POST', '/api/schema/collections/inferred/validator/check'));
      expect(check.result).toMatchObject({ checked: 2, failing: 0 });
      const viaKey = await withKey('GET', '/api/v1/schema/collections/inferred/infer');
      expect(viaKey.status).toBe(200);
    });

    it('gives an object schema for a collection without documents, and refuses a sample past the limit', async () => {
      const empty = (await (await as('GET', '/api/schema/collections/nothing_here/infer')).json()) as {
        sampled: number;
        schema: Record<string, unknown>;
      };
      expect(empty).toMatchObject({ sampled: 0, schema: { type: 'object' } });
      expect((await as('GET', '/api/schema/collections/x/infer?sample=1001')).status).toBe(400);
    });
  });

  describe('a collection drop', () => {
    it('removes documents, validator, indexes and events, keeps later writes, and leaves the list', async () => {
      await insertMany(
        'dropped',
        Array.from({ length: 2500 }, (_, i) => ({ email: `d${i}@example.com`, n: i })),
      );
      expect((await as('PUT', '/api/schema/collections/dropped/validator', { schema: SCHEMA })).status).toBe(
        200,
      );
      const index = await as('POST', '/api/schema/collections/dropped/indexes', {
        fields: [{ path: 'email' }],
        unique: true,
      });
      expect(((await index.json()) as JobAnswer).status).toBe('succeeded');

      const answer = await as('DELETE', '/api/schema/collections/dropped');
      expect(answer.status, await answer.clone().text()).toBe(202);
      // Acknowledged after the drop's answer: kept, and no longer held to the dropped validator.
      const later = await withKey('POST', '/api/v1/data/dropped', { n: 'after' });
      expect(later.status, await later.clone().text()).toBe(201);
      await t.server.app.schemaJobs.idle();
      const done = await job(((await answer.json()) as JobAnswer)._id);
      expect(done).toMatchObject({ kind: 'collection.drop', status: 'succeeded', counts: { rows: 2500 } });
      expect(done.progress).toEqual({ done: 2500, total: 2500 });

      const left = (await (await withKey('GET', '/api/v1/data/dropped?limit=10')).json()) as {
        data: { n: unknown }[];
        total: number;
      };
      expect(left.total).toBe(1);
      expect(left.data.map((d) => d.n)).toEqual(['after']);
      expect((await as('GET', '/api/schema/collections/dropped/validator')).status).toBe(404);
      expect(
        ((await (await as('GET', '/api/schema/collections/dropped/indexes')).json()) as { data: unknown[] })
          .data,
      ).toEqual([]);
      const collections = (await (await as('GET', '/api/schema/collections')).json()) as {
        data: { name: string; documentCount: number }[];
      };
      expect(collections.data.find((c) => c.name === 'dropped')).toMatchObject({ documentCount: 1 });
    });

    it('takes the collection off the list once nothing is left, and is 404 for an unknown one', async () => {
      await insertMany('gone', [{ a: 1 }, { a: 2 }]);
      await finished(await as('DELETE', '/api/schema/collections/gone'));
      const collections = (await (await as('GET', '/api/schema/collections')).json()) as {
        data: { name: string }[];
      };
      expect(collections.data.map((c) => c.name)).not.toContain('gone');
      expect((await as('DELETE', '/api/schema/collections/gone')).status).toBe(404);
      expect((await as('DELETE', '/api/schema/collections/never_written')).status).toBe(404);
    });
  });

  describe('functions', () => {
    it("writes through ctx.data are held to the collection's validator and unique indexes", async () => {
      expect(
        (await as('PUT', '/api/schema/collections/fn_people/validator', { schema: SCHEMA })).status,
      ).toBe(200);
      const index = await as('POST', '/api/schema/collections/fn_people/indexes', {
        fields: [{ path: 'email' }],
        unique: true,
      });
      expect(((await index.json()) as JobAnswer).status).toBe('succeeded');
      const code = `export default async (input, ctx) => {
        try {
          await ctx.data.create('fn_people', input);
          return { ok: true };
        } catch (error) {
          return { ok: false, code: error.code, message: error.message };
        }
      };`;
      const made = await as('POST', '/api/functions', { name: 'schema_writer', code });
      expect(made.status, await made.clone().text()).toBe(201);
      const id = ((await made.json()) as { _id: string })._id;
      const run = async (input: unknown) =>
        (
          (await (await as('POST', `/api/functions/${id}/invoke`, input)).json()) as {
            result: { ok: boolean; code?: string };
          }
        ).result;
      expect(await run({ email: 'a@example.com' })).toEqual({ ok: true });
      expect(await run({ age: 3 })).toMatchObject({ ok: false, code: 'schema_violation' });
      expect(await run({ email: 'a@example.com' })).toMatchObject({ ok: false, code: 'unique_violation' });
      const stored = (await (await withKey('GET', '/api/v1/data/fn_people')).json()) as { total: number };
      expect(stored.total).toBe(1);
    });
  });
});
