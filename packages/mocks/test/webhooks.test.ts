import { describe, expect, it } from 'vitest';
import { BASE_URL, useMockApi } from './harness.js';

const { mocks, call } = useMockApi();

async function subscribe(json: Record<string, unknown>) {
  const result = await call('POST', '/api/v1/data/webhooks', { json });
  expect(result.status).toBe(201);
  return result.body as { _id: string; secret: string };
}

const deliveriesOf = async (id: string, query = '') =>
  (await call('GET', `/api/v1/data/webhooks/${id}/deliveries${query}`)).body;

describe('webhooks in the mocks', () => {
  it('keeps subscriptions as the server does: secret once, list without it, delete once', async () => {
    const created = await subscribe({
      url: 'https://example.com/h',
      events: ['*'],
      secret: 'my-own-secret-value',
    });
    expect(created).toMatchObject({
      secret: 'my-own-secret-value',
      collection: null,
      delivery: 'http',
      active: true,
    });
    expect(mocks.store.webhooks()).toEqual([expect.not.objectContaining({ secret: expect.anything() })]);
    expect((await call('GET', '/api/v1/data/webhooks')).body.data).toHaveLength(1);
    expect((await call('DELETE', `/api/v1/data/webhooks/${created._id}`)).body).toEqual({
      _id: created._id,
      deleted: true,
    });
    expect((await call('DELETE', `/api/v1/data/webhooks/${created._id}`)).status).toBe(404);
  });

  it.each([
    [{ url: 'nope', events: ['*'] }, 'validation_error'],
    [{ url: 'https://example.com', events: [] }, 'validation_error'],
    [{ url: 'https://example.com', events: ['*'], secret: 'short' }, 'validation_error'],
    [[1], 'invalid_body'],
  ])('refuses %j with %s', async (json, code) => {
    const result = await call('POST', '/api/v1/data/webhooks', { json });
    expect(result.status).toBe(400);
    expect(result.body.code).toBe(code);
  });

  it('captures a pending delivery for each matching write and never sends it', async () => {
    const { _id } = await subscribe({
      url: 'https://example.com/h',
      events: ['document.updated'],
      collection: 'orders',
    });
    const doc = (await call('POST', '/api/v1/data/orders', { json: { n: 1 } })).body;
    await call('PATCH', `/api/v1/data/orders/${doc._id}`, { json: { n: 2 } });
    await call('PUT', `/api/v1/data/orders/${doc._id}`, { json: { n: 3 } });
    await call('POST', '/api/v1/data/other', { json: { n: 1 } });
    const page = await deliveriesOf(_id);
    expect(page.total).toBe(2);
    expect(
      page.data.every(
        (d: { eventType: string; status: string; attempts: number }) =>
          d.eventType === 'document.updated' && d.status === 'pending' && d.attempts === 0,
      ),
    ).toBe(true);
    const attempts = await call(
      'GET',
      `/api/v1/data/webhooks/${_id}/deliveries/${page.data[0]._id}/attempts`,
    );
    expect(attempts.body).toEqual({ data: [] });
    const resent = await call('POST', `/api/v1/data/webhooks/${_id}/deliveries/${page.data[0]._id}/resend`);
    expect(resent.status).toBe(202);
    expect((await call('POST', `/api/v1/data/webhooks/${_id}/deliveries/dlv_none/resend`)).status).toBe(404);
  });

  it('keeps the deliveries of a stream subscription as streamed, never due, and refuses to re-send them', async () => {
    const stream = await subscribe({
      url: 'http://localhost:3000/hooks',
      events: ['*'],
      collection: 'orders',
      delivery: 'stream',
    });
    const posted = await subscribe({ url: 'https://example.com/h', events: ['*'], collection: 'orders' });
    expect(stream).toMatchObject({ url: 'http://localhost:3000/hooks', delivery: 'stream' });
    expect(mocks.store.webhooks().map((w) => w.delivery)).toEqual(['stream', 'http']);
    await call('POST', '/api/v1/data/orders', { json: { n: 1 } });
    const test = await call('POST', `/api/v1/data/webhooks/${stream._id}/test`, { json: {} });
    expect(test.status).toBe(202);
    expect(test.body).toMatchObject({ status: 'streamed', nextAttemptAt: null });
    const page = await deliveriesOf(stream._id);
    expect(page.data.map((d: { status: string }) => d.status)).toEqual(['streamed', 'streamed']);
    expect((await deliveriesOf(stream._id, '?status=streamed')).total).toBe(2);
    expect((await deliveriesOf(posted._id)).data[0]).toMatchObject({ status: 'pending' });
    const resent = await call(
      'POST',
      `/api/v1/data/webhooks/${stream._id}/deliveries/${page.data[0]._id}/resend`,
    );
    expect(resent.status).toBe(400);
    expect(resent.body).toMatchObject({ code: 'validation_error', details: { status: 'streamed' } });
    const refused = await call('POST', '/api/v1/data/webhooks', {
      json: { url: 'https://example.com/h', events: ['*'], delivery: 'email' },
    });
    expect(refused.body).toMatchObject({ code: 'validation_error', details: { field: 'delivery' } });
  });

  it('captures nothing for a transactional batch that aborted', async () => {
    const { _id } = await subscribe({ url: 'https://example.com/h', events: ['*'] });
    const result = await call('POST', '/api/v1/data/batch', {
      json: {
        transaction: true,
        operations: [
          { op: 'insert', collection: 'orders', data: { n: 1 } },
          { op: 'delete', collection: 'orders', id: 'missing' },
        ],
      },
    });
    expect(result.status).toBe(409);
    expect((await deliveriesOf(_id)).total).toBe(0);
    await call('POST', '/api/v1/data/batch', {
      json: {
        operations: [
          { op: 'insert', collection: 'orders', data: { n: 1 } },
          { op: 'delete', collection: 'orders', id: 'missing' },
        ],
      },
    });
    expect((await deliveriesOf(_id)).total).toBe(1);
  });

  it('answers the event stream with an empty stream, and 404 for an unknown webhook', async () => {
    const { _id } = await subscribe({ url: 'https://example.com/h', events: ['*'] });
    const res = await fetch(`${BASE_URL}/api/v1/data/webhooks/${_id}/events`, {
      headers: { 'X-API-Key': mocks.apiKey },
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(await res.text()).toMatch(/^retry: 2000\nid: start_\d{4}-\d\d-\d\dT[\d:.]+Z\n\n/);
    expect((await call('GET', '/api/v1/data/webhooks/wh_none/deliveries')).status).toBe(404);
    expect((await call('POST', '/api/v1/data/webhooks/wh_none/rotate-secret', { json: {} })).status).toBe(
      404,
    );
  });

  it('answers a test event with a pending delivery of it, listed with the others, for that subscription alone', async () => {
    const { _id } = await subscribe({
      url: 'https://example.com/h',
      events: ['document.deleted', 'document.created'],
      collection: 'orders',
    });
    const bystander = await subscribe({ url: 'https://example.com/other', events: ['*'] });
    const sent = await call('POST', `/api/v1/data/webhooks/${_id}/test`);
    expect(sent.status).toBe(202);
    expect(sent.body).toMatchObject({
      webhookId: _id,
      eventType: 'document.deleted',
      collection: 'orders',
      status: 'pending',
      attempts: 0,
    });
    expect(sent.body.documentId).toMatch(/^test_/);
    expect(sent.body.eventId).toMatch(/^evt_/);
    const asked = await call('POST', `/api/v1/data/webhooks/${_id}/test`, {
      json: { type: 'document.created', collection: 'orders' },
    });
    expect(asked.body.eventType).toBe('document.created');
    expect((await deliveriesOf(_id)).data).toEqual([asked.body, sent.body]);
    expect((await deliveriesOf(bystander._id)).total).toBe(0);
    const catchAll = await call('POST', `/api/v1/data/webhooks/${bystander._id}/test`, { json: {} });
    expect(catchAll.body).toMatchObject({ eventType: 'document.created', collection: 'test' });
  });

  it.each([
    [{ type: 'document.updated' }, 'validation_error', 'type'],
    [{ collection: 'invoices' }, 'validation_error', 'collection'],
    [{ type: 'document.exploded' }, 'validation_error', 'type'],
    [[1], 'invalid_body', undefined],
  ])('refuses the test event %j with %s, as the server does', async (json, code, field) => {
    const { _id } = await subscribe({
      url: 'https://example.com/h',
      events: ['document.created'],
      collection: 'orders',
    });
    const result = await call('POST', `/api/v1/data/webhooks/${_id}/test`, { json });
    expect(result.status).toBe(400);
    expect(result.body.code).toBe(code);
    if (field) expect(result.body.details.field).toBe(field);
    expect((await deliveriesOf(_id)).total).toBe(0);
  });

  it('answers 404 to a test event for an unknown webhook', async () => {
    const result = await call('POST', '/api/v1/data/webhooks/wh_none/test', { json: {} });
    expect(result.status).toBe(404);
    expect(result.body.code).toBe('not_found');
  });
});
