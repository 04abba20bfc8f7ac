import { describe, expect, it } from 'vitest';
import { BadRequestError, ConflictError, DataPlatform, NotFoundError } from '../src/index.js';
import { useMockedApi } from './mocked-api.js';

const { baseUrl, mocks, seen, signedIn } = useMockedApi();

const SCHEMA = { type: 'object', required: ['email'], properties: { email: { type: 'string' } } };

describe('client.schema', () => {
  it('infers a schema, sets it as the validator, checks the stored documents and removes it', async () => {
    const client = await signedIn();
    await client.data.create('users', { email: 'a@example.com', age: 3 });
    await client.data.create('users', { name: 'no e-mail' });
    const inferred = await client.schema.infer('users', { sample: 10 });
    expect(inferred).toMatchObject({
      collection: 'users',
      sampled: 2,
      schema: { type: 'object', required: [] },
    });

    const validator = await client.schema.validator.put('users', { schema: SCHEMA });
    expect(validator).toMatchObject({ collection: 'users', level: 'strict', schema: SCHEMA });
    expect(await client.schema.validator.get('users')).toMatchObject({ schema: SCHEMA });
    const { data } = await client.schema.collections.list();
    expect(data).toContainEqual(expect.objectContaining({ name: 'users', documentCount: 2 }));

    const started = await client.schema.validator.check('users');
    const job = await client.jobs.wait(started._id, { intervalMs: 1 });
    expect(job).toMatchObject({
      kind: 'validator.check',
      status: 'succeeded',
      result: { checked: 2, failing: 1 },
    });
    const result = job.result && 'samples' in job.result ? job.result : null;
    expect(result?.samples[0]?.errors).toEqual([
      { path: '/email', message: "must have required property 'email'" },
    ]);

    await expect(client.schema.validator.put('users', { schema: { type: 'nope' } })).rejects.toBeInstanceOf(
      BadRequestError,
    );
    expect(await client.schema.validator.delete('users')).toEqual({ collection: 'users', deleted: true });
    await expect(client.schema.validator.get('users')).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.schema.validator.check('users')).rejects.toBeInstanceOf(NotFoundError);
    expect(seen).toContain('GET /api/schema/collections/users/infer?sample=10');
  });

  it('creates, lists and drops indexes, and drops the collection with them', async () => {
    const client = await signedIn();
    await client.data.create('orders', { email: 'a@example.com' });
    const built = await client.schema.indexes.create('orders', {
      name: 'by_email',
      fields: [{ path: 'email' }],
      unique: true,
    });
    expect(built).toMatchObject({ kind: 'index.build', status: 'succeeded' });
    await expect(
      client.schema.indexes.create('orders', { name: 'by_email', fields: [{ path: 'x' }] }),
    ).rejects.toBeInstanceOf(ConflictError);
    const { data } = await client.schema.indexes.list('orders');
    expect(data).toEqual([expect.objectContaining({ name: 'by_email', unique: true, status: 'ready' })]);
    expect(await client.schema.indexes.delete('orders', 'by_email')).toEqual({
      _id: 'by_email',
      deleted: true,
    });
    await expect(client.schema.indexes.delete('orders', 'by_email')).rejects.toBeInstanceOf(NotFoundError);

    const drop = await client.schema.collections.drop('orders');
    expect(drop).toMatchObject({ kind: 'collection.drop', input: { collection: 'orders' } });
    expect((await client.data.list('orders')).data).toEqual([]);
    await expect(client.schema.collections.drop('orders')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('sends a named cluster on the dashboard routes, and a key reads under /api/v1/schema', async () => {
    const client = await signedIn();
    await expect(client.schema.collections.list({ clusterId: 'cls_nope' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect(seen).toContain('GET /api/schema/collections?clusterId=cls_nope');

    const keyed = new DataPlatform({ baseUrl, apiKey: mocks.apiKey, maxRetries: 0 });
    await keyed.data.create('events', { kind: 'click' });
    await client.schema.validator.put('events', { schema: { type: 'object' }, level: 'off' });
    expect(await keyed.schema.validator.get('events')).toMatchObject({ level: 'off' });
    expect(await keyed.schema.indexes.list('events')).toEqual({ data: [] });
    expect((await keyed.schema.infer('events')).schema).toMatchObject({ required: ['kind'] });
    expect((await keyed.schema.collections.list()).data).toContainEqual(
      expect.objectContaining({ name: 'events' }),
    );
    expect(seen).toEqual(
      expect.arrayContaining([
        'GET /api/v1/schema/collections/events/validator',
        'GET /api/v1/schema/collections/events/indexes',
        'GET /api/v1/schema/collections/events/infer',
        'GET /api/v1/schema/collections',
      ]),
    );
  });
});
