import { createDataPlatformMocks } from '@dataplatform/mocks';
import { signAsync, WebhookVerificationError } from '@dataplatform/webhooks';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  DataPlatform,
  DataPlatformError,
  NotFoundError,
  PermissionDeniedError,
} from '../src/index.js';

const mocks = createDataPlatformMocks({ baseUrl: 'http://localhost:5000' });
const server = setupServer(...mocks.handlers);
const client = new DataPlatform({ apiKey: mocks.apiKey, baseUrl: 'http://localhost:5000' });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mocks.store.reset());
afterAll(() => server.close());

describe('client.webhooks', () => {
  it('creates a subscription whose secret is shown once, lists it without, and deletes it', async () => {
    const created = await client.webhooks.create({
      url: 'https://example.com/hooks',
      events: ['document.created', 'document.deleted'],
      collection: 'orders',
    });
    expect(created).toMatchObject({ url: 'https://example.com/hooks', collection: 'orders', active: true });
    expect(created.secret).toMatch(/^whsec_/);
    const { data } = await client.webhooks.list();
    expect(data).toEqual([
      {
        _id: created._id,
        url: created.url,
        events: created.events,
        collection: 'orders',
        delivery: 'http',
        active: true,
        createdAt: created.createdAt,
      },
    ]);
    expect(await client.webhooks.delete(created._id)).toEqual({ _id: created._id, deleted: true });
    await expect(client.webhooks.delete(created._id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('creates a stream-only subscription whose deliveries are streamed, and cannot re-send them', async () => {
    const { _id } = await client.webhooks.create({
      url: 'http://localhost:3000/hooks',
      events: ['*'],
      delivery: 'stream',
    });
    expect((await client.webhooks.list()).data[0]).toMatchObject({ _id, delivery: 'stream' });
    const delivery = await client.webhooks.test(_id);
    expect(delivery).toMatchObject({ status: 'streamed', nextAttemptAt: null });
    const streamed = await client.webhooks.deliveries(_id, { status: 'streamed' });
    expect(streamed.data.map((d) => d._id)).toEqual([delivery._id]);
    const error = await client.webhooks.resend(_id, delivery._id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).code).toBe('validation_error');
  });

  it('refuses an invalid subscription with BadRequestError validation_error', async () => {
    const error = await client.webhooks
      .create({ url: 'ftp://example.com', events: ['*'] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).code).toBe('validation_error');
  });

  it('walks the deliveries of a subscription page by page and reads their attempts', async () => {
    const { _id } = await client.webhooks.create({
      url: 'https://example.com/hooks',
      events: ['*'],
      collection: 'orders',
    });
    for (let n = 0; n < 5; n++) await client.data.create('orders', { n });
    await client.data.create('other', { n: 0 });
    const first = await client.webhooks.deliveries(_id, { limit: 2 });
    expect(first.data).toHaveLength(2);
    expect(first.total).toBe(5);
    const all = [];
    for await (const delivery of client.webhooks.deliveries(_id, { limit: 2 })) all.push(delivery);
    expect(all.map((d) => d.eventType)).toEqual(Array(5).fill('document.created'));
    expect(all.every((d) => d.status === 'pending' && d.webhookId === _id)).toBe(true);
    expect((await client.webhooks.deliveries(_id, { status: 'succeeded' })).data).toEqual([]);
    expect(await client.webhooks.attempts(_id, all[0]!._id)).toEqual({ data: [] });
    const resent = await client.webhooks.resend(_id, all[0]!._id);
    expect(resent).toMatchObject({ _id: all[0]!._id, status: 'pending' });
    await expect(client.webhooks.resend(_id, 'dlv_unknown')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('sends a test event to one subscription and finds its delivery among the others', async () => {
    const { _id } = await client.webhooks.create({
      url: 'https://example.com/hooks',
      events: ['document.updated'],
      collection: 'orders',
    });
    const delivery = await client.webhooks.test(_id);
    expect(delivery).toMatchObject({
      webhookId: _id,
      eventType: 'document.updated',
      collection: 'orders',
      status: 'pending',
    });
    expect(delivery.documentId).toMatch(/^test_/);
    expect((await client.webhooks.deliveries(_id)).data).toEqual([delivery]);
    const refused = await client.webhooks.test(_id, { type: 'document.created' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BadRequestError);
    expect((refused as BadRequestError).code).toBe('validation_error');
    await expect(client.webhooks.test('wh_unknown', { collection: 'orders' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it('rotates a secret, generated or given', async () => {
    const { _id, secret } = await client.webhooks.create({ url: 'https://example.com/hooks', events: ['*'] });
    const rotated = await client.webhooks.rotateSecret(_id);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(secret);
    expect(Date.parse(rotated.previousSecretExpiresAt)).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    const given = await client.webhooks.rotateSecret(_id, { secret: 'a-secret-of-my-own-123' });
    expect(given.secret).toBe('a-secret-of-my-own-123');
  });

  it('needs webhooks:manage', async () => {
    const readOnly = new DataPlatform({
      apiKey: mocks.addKey({ scopes: ['data:read', 'data:write'] }),
      baseUrl: 'http://localhost:5000',
    });
    await expect(readOnly.webhooks.list()).rejects.toBeInstanceOf(PermissionDeniedError);
  });

  it('refuses ids that would leave their path segment', () => {
    expect(() => client.webhooks.delete('..')).toThrow(DataPlatformError);
    expect(() => client.webhooks.attempts('wh_1', '.')).toThrow(DataPlatformError);
  });

  it('verifies a delivery with the verifier package, and says which check a forged one fails', async () => {
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const body = JSON.stringify({
      id: 'evt_1',
      type: 'document.created',
      collection: 'orders',
      data: { n: 'ü' },
    });
    const headers = await signAsync(body, secret, { id: 'evt_1', event: 'document.created' });
    await expect(client.webhooks.verify(body, headers, secret)).resolves.toBeUndefined();
    const forged = client.webhooks.verify(body.replace('ü', 'u'), headers, secret);
    await expect(forged).rejects.toBeInstanceOf(WebhookVerificationError);
    await expect(forged).rejects.toMatchObject({ code: 'invalid_signature' });
  });

  it('streams nothing from the mocks but opens and ends cleanly; an unknown webhook is NotFoundError', async () => {
    const { _id } = await client.webhooks.create({ url: 'https://example.com/hooks', events: ['*'] });
    let opened = 0;
    const events = [];
    // The mock stream sends `retry:` and a comment, then ends: the loop ends without an event.
    for await (const event of client.webhooks.stream(_id, { onOpen: () => opened++ })) events.push(event);
    expect({ opened, events }).toEqual({ opened: 1, events: [] });
    const unknown = client.webhooks.stream('wh_unknown', { onOpen: () => opened++ }).next();
    await expect(unknown).rejects.toBeInstanceOf(NotFoundError);
    expect(opened).toBe(1);
  });

  it('ends the stream at the error event a server sends a reader too far behind', async () => {
    const message = { body: '{"type":"document.created"}', headers: { 'webhook-id': 'evt_1' } };
    const text =
      'retry: 2000\n\n' +
      `id: evt_1\nevent: document.created\ndata: ${JSON.stringify(message)}\n\n` +
      'id: evt_1\nevent: error\ndata: {"code":"too_slow","message":"resume","lastEventId":"evt_1"}\n\n';
    server.use(
      http.get(
        'http://localhost:5000/api/v1/data/webhooks/wh_slow/events',
        () => new HttpResponse(text, { headers: { 'content-type': 'text/event-stream' } }),
        { once: true },
      ),
    );
    const events = [];
    for await (const event of client.webhooks.stream('wh_slow')) events.push(event);
    expect(events).toEqual([{ id: 'evt_1', type: 'document.created', message }]);
  });
});
