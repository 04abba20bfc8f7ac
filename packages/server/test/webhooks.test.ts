import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WebhookSubscription } from '@dataplatform/contract';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { forEachEngine, type TestServer } from './helpers.js';

const RECEIVER = 'http://127.0.0.1:9/hook';

forEachEngine((t) => {
  const create = (body: unknown, key?: string) => t().call('POST', '/api/v1/data/webhooks', { body, key });

  describe('webhook subscriptions', () => {
    it('creates a subscription with a generated whsec_ secret shown only in the answer', async () => {
      const res = await create({ url: RECEIVER, events: ['document.created'], collection: 'orders' });
      expect(res.status).toBe(201);
      const body = await res.json();
      expect(WebhookSubscription.strict().safeParse(body).success).toBe(true);
      expect(body).toMatchObject({
        url: RECEIVER,
        events: ['document.created'],
        collection: 'orders',
        delivery: 'http',
        active: true,
      });
      expect(body._id).toMatch(/^wh_/);
      expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(body.secret.slice(6), 'base64')).toHaveLength(32);

      const list = await (await t().call('GET', '/api/v1/data/webhooks')).json();
      const listed = list.data.find((w: { _id: string }) => w._id === body._id);
      expect(listed).toEqual({
        _id: body._id,
        url: RECEIVER,
        events: ['document.created'],
        collection: 'orders',
        delivery: 'http',
        active: true,
        createdAt: body.createdAt,
      });
    });

    it('keeps a supplied secret and a subscription to every collection', async () => {
      const secret = 'a-secret-of-my-own-choosing';
      const res = await create({ url: RECEIVER, events: ['*'], secret });
      expect(res.status).toBe(201);
      expect(await res.json()).toMatchObject({ secret, collection: null, events: ['*'] });
    });

    it.each([
      ['a relative url', { url: '/hook', events: ['*'] }],
      ['an ftp url', { url: 'ftp://example.com/hook', events: ['*'] }],
      ['no events', { url: RECEIVER, events: [] }],
      ['an unknown event', { url: RECEIVER, events: ['document.archived'] }],
      ['a short secret', { url: RECEIVER, events: ['*'], secret: 'too-short' }],
      ['a long secret', { url: RECEIVER, events: ['*'], secret: 'x'.repeat(129) }],
      ['a bad collection', { url: RECEIVER, events: ['*'], collection: '1orders' }],
      ['no url', { events: ['*'] }],
    ])('refuses %s with 400 validation_error', async (_name, body) => {
      const res = await create(body);
      expect(res.status).toBe(400);
      expect((await res.json()).code).toBe('validation_error');
    });

    it.each(['sql', 'batch', 'webhooks'])(
      'refuses the reserved collection name %s with 400 reserved_collection, creating nothing',
      async (collection) => {
        const before = (await (await t().call('GET', '/api/v1/data/webhooks')).json()).data.length;
        const res = await create({ url: RECEIVER, events: ['*'], collection });
        expect(res.status).toBe(400);
        expect((await res.json()).code).toBe('reserved_collection');
        expect((await (await t().call('GET', '/api/v1/data/webhooks')).json()).data).toHaveLength(before);
      },
    );

    it('refuses a field the body does not have with 400 validation_error', async () => {
      const res = await create({ url: RECEIVER, events: ['*'], retries: 3 });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'validation_error', details: { field: 'retries' } });
    });

    it('refuses a body that is not an object and malformed JSON', async () => {
      expect((await (await create([1, 2])).json()).code).toBe('invalid_body');
      const res = await t().call('POST', '/api/v1/data/webhooks', { body: '{"url":' });
      expect(res.status).toBe(400);
      expect((await res.json()).code).toBe('invalid_json');
    });

    it('needs the webhooks:manage scope', async () => {
      const { apiKey } = await t().addKey({ scopes: ['data:read', 'data:write'] });
      const res = await create({ url: RECEIVER, events: ['*'] }, apiKey);
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({
        code: 'insufficient_scope',
        details: { required: ['webhooks:manage'] },
      });
      expect((await t().call('GET', '/api/v1/data/webhooks', { key: apiKey })).status).toBe(403);
      expect((await t().call('GET', '/api/v1/data/webhooks', { key: null })).status).toBe(401);
    });

    it('deletes a subscription once, then answers 404', async () => {
      const { _id } = await (await create({ url: RECEIVER, events: ['*'] })).json();
      const removed = await t().call('DELETE', `/api/v1/data/webhooks/${_id}`);
      expect(removed.status).toBe(200);
      expect(await removed.json()).toEqual({ _id, deleted: true });
      const again = await t().call('DELETE', `/api/v1/data/webhooks/${_id}`);
      expect(again.status).toBe(404);
      expect((await again.json()).code).toBe('not_found');
      const list = await (await t().call('GET', '/api/v1/data/webhooks')).json();
      expect(list.data.map((w: { _id: string }) => w._id)).not.toContain(_id);
    });

    it("never shows or touches another cluster's subscriptions", async () => {
      const { _id } = await (await create({ url: RECEIVER, events: ['*'] })).json();
      const other = t().other.apiKey;
      const theirs = await (await t().call('GET', '/api/v1/data/webhooks', { key: other })).json();
      expect(theirs.data).toEqual([]);
      for (const [method, path] of [
        ['DELETE', `/api/v1/data/webhooks/${_id}`],
        ['GET', `/api/v1/data/webhooks/${_id}/deliveries`],
        ['POST', `/api/v1/data/webhooks/${_id}/rotate-secret`],
        ['GET', `/api/v1/data/webhooks/${_id}/events`],
      ] as const) {
        const res = await t().call(method, path, { key: other });
        expect(res.status, `${method} ${path}`).toBe(404);
      }
    });

    it('keeps no usable secret in the database: secrets are encrypted at rest', async () => {
      const secret = 'plain-secret-that-must-not-leak-1234';
      const res = await create({ url: RECEIVER, events: ['*'], secret });
      expect(res.status).toBe(201);
      const stored = await storedText(t());
      expect(stored).toContain('webhook_subscriptions');
      expect(stored).not.toContain(secret);
      expect(stored).not.toContain(Buffer.from(secret).toString('base64'));
    });
  });
});

/** Everything the database holds, as text: the SQLite files' bytes, or every row of PostgreSQL's tables. */
async function storedText(server: TestServer): Promise<string> {
  if (!server.databaseUrl) {
    return readdirSync(server.dataDir)
      .filter((name) => name.startsWith('dataplatform.sqlite'))
      .map((name) => readFileSync(join(server.dataDir, name)).toString('latin1'))
      .join('\n');
  }
  const sql = postgres(server.databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const tables = await sql<{ name: string }[]>`
      SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`;
    const parts: string[] = [];
    for (const { name } of tables)
      parts.push(name, JSON.stringify(await sql.unsafe(`SELECT * FROM ${name}`)));
    return parts.join('\n');
  } finally {
    await sql.end();
  }
}
