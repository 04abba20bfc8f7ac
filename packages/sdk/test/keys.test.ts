import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  ConflictError,
  DataPlatform,
  NotFoundError,
  PermissionDeniedError,
} from '../src/index.js';
import { useMockedApi } from './mocked-api.js';

const { baseUrl, mocks, signedIn } = useMockedApi();

const withKey = (apiKey: string) => new DataPlatform({ baseUrl, apiKey, maxRetries: 0 });

describe('client.keys', () => {
  it('creates, lists, gets, pauses, resumes, rotates and deletes a key, each taking effect at once', async () => {
    const client = await signedIn();
    const { key, secret } = await client.keys.create({ name: 'CI', scopes: ['data:read'], expiresIn: '30d' });
    expect(key).toMatchObject({ name: 'CI', status: 'active', scopes: ['data:read'] });
    expect(key.expiresAt).not.toBeNull();
    expect((await client.keys.list()).data.map((k) => k._id)).toEqual([key._id]);
    expect(await client.keys.get(key._id)).toEqual(key);
    await expect(withKey(secret).data.list('orders')).resolves.toMatchObject({ data: [] });

    expect((await client.keys.pause(key._id)).status).toBe('paused');
    await expect(withKey(secret).data.list('orders')).rejects.toBeInstanceOf(AuthenticationError);
    await expect(client.keys.rotate(key._id)).rejects.toBeInstanceOf(ConflictError);
    expect((await client.keys.resume(key._id)).status).toBe('active');

    const rotated = await client.keys.rotate(key._id);
    expect(rotated.key._id).toBe(key._id);
    await expect(withKey(secret).data.list('orders')).rejects.toBeInstanceOf(AuthenticationError);
    await expect(withKey(rotated.secret).data.list('orders')).resolves.toBeDefined();

    expect(await client.keys.delete(key._id)).toEqual({ _id: key._id, deleted: true });
    await expect(client.keys.get(key._id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(withKey(rotated.secret).data.list('orders')).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('pages through the usage history with for await, newest first', async () => {
    const client = await signedIn();
    const { key, secret } = await client.keys.create({ name: 'u', scopes: ['data:read'] });
    for (let i = 0; i < 3; i++) await withKey(secret).data.list('orders');
    await expect(withKey(secret).data.create('orders', { a: 1 })).rejects.toBeInstanceOf(
      PermissionDeniedError,
    );

    const first = await client.keys.usage(key._id, { limit: 2 });
    expect(first.total).toBe(4);
    expect(first.data.map((e) => e.outcome)).toEqual(['denied', 'success']);
    expect(first.hasNextPage()).toBe(true);
    const all = [];
    for await (const entry of client.keys.usage(key._id, { limit: 2 })) all.push(entry.status);
    expect(all).toEqual([403, 200, 200, 200]);
    const denied = await client.keys.usage(key._id, { outcome: 'denied' });
    expect(denied.data.map((e) => e.path)).toEqual(['/api/v1/data/orders']);
    expect(denied.hasNextPage()).toBe(false);
  });

  it('refuses scopes a user cannot give, and API keys on the key routes', async () => {
    const client = await signedIn();
    const robot = await client.robots.create({ name: 'r', scopes: ['data:read'] });
    await expect(
      client.robots.keys.create(robot._id, { name: 'k', scopes: ['data:write'] }),
    ).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(withKey(mocks.apiKey).keys.list()).rejects.toBeInstanceOf(AuthenticationError);
  });
});

describe('client.robots', () => {
  it('creates, lists and gets robots, gives them keys, and deletes them with their keys', async () => {
    const client = await signedIn();
    const robot = await client.robots.create({ name: 'deployer', scopes: ['data:read', 'data:write'] });
    expect(robot).toMatchObject({ name: 'deployer', scopes: ['data:read', 'data:write'] });
    expect((await client.robots.list()).data).toEqual([robot]);
    expect(await client.robots.get(robot._id)).toEqual(robot);

    const { key, secret } = await client.robots.keys.create(robot._id, { name: 'k', scopes: ['data:write'] });
    expect((await client.robots.keys.list(robot._id)).data).toEqual([key]);
    expect((await client.keys.list()).data).toEqual([]);
    // A key that may write but not read gets the stored document's system fields back, not its content.
    const receipt = await withKey(secret).data.create('orders', { a: 1 });
    expect(Object.keys(receipt).sort()).toEqual(['_createdAt', '_id', '_updatedAt']);

    expect(await client.robots.delete(robot._id)).toEqual({ _id: robot._id, deleted: true });
    await expect(client.robots.get(robot._id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(withKey(secret).data.list('orders')).rejects.toBeInstanceOf(AuthenticationError);
  });
});
