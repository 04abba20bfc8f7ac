import { AuthenticationError, DataPlatform, NotFoundError } from '@dataplatform/sdk';
import { beforeAll, expect, it } from 'vitest';
import { forEachEngine, type TestServer } from './helpers.js';

/** The SDK's key and robot modules against the reference server, usage paged with `for await`. */
forEachEngine((server) => {
  let t: TestServer;
  beforeAll(() => {
    t = server();
  });

  it('manages keys and robots through client.keys and client.robots', async () => {
    const client = new DataPlatform({ baseUrl: t.url, maxRetries: 0 });
    await client.auth.signUp(
      { email: `sdk-keys-${t.engine}@example.com`, password: 'a long enough password', name: 'Keys' },
      { storeToken: true },
    );
    const { key, secret } = await client.keys.create({ name: 'sdk', scopes: ['data:read'] });
    const withKey = new DataPlatform({ baseUrl: t.url, apiKey: secret, maxRetries: 0 });
    for (let i = 0; i < 3; i++) await withKey.data.list('notes');
    await expect(withKey.data.create('notes', { a: 1 })).rejects.toThrow();

    // The history is written in batches every 100 ms.
    await expect.poll(async () => (await client.keys.usage(key._id)).total, { timeout: 5000 }).toBe(4);
    const statuses: number[] = [];
    for await (const entry of client.keys.usage(key._id, { limit: 3 })) statuses.push(entry.status);
    expect(statuses).toEqual([403, 200, 200, 200]);

    const rotated = await client.keys.rotate(key._id);
    await expect(withKey.data.list('notes')).rejects.toBeInstanceOf(AuthenticationError);
    expect(await client.keys.delete(key._id)).toEqual({ _id: key._id, deleted: true });
    await expect(
      new DataPlatform({ baseUrl: t.url, apiKey: rotated.secret, maxRetries: 0 }).data.list('notes'),
    ).rejects.toBeInstanceOf(AuthenticationError);

    const robot = await client.robots.create({ name: 'bot', scopes: ['data:read'] });
    const robotKey = await client.robots.keys.create(robot._id, { name: 'k', scopes: ['data:read'] });
    expect((await client.robots.keys.list(robot._id)).data).toEqual([robotKey.key]);
    await client.robots.delete(robot._id);
    await expect(client.robots.get(robot._id)).rejects.toBeInstanceOf(NotFoundError);
  });
});
