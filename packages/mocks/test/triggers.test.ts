import { describe, expect, it } from 'vitest';
import { useMockApi } from './harness.js';

const { call } = useMockApi();

async function session() {
  const email = `triggers-${Math.random().toString(36).slice(2)}@example.com`;
  const result = await call('POST', '/api/auth/signup', {
    key: null,
    json: { email, password: 'triggers password', name: 'T' },
  });
  return { Authorization: `Bearer ${result.body.token as string}` };
}

async function webhook(delivery: 'http' | 'stream') {
  const result = await call('POST', '/api/v1/data/webhooks', {
    json: { url: 'https://example.com/hook', events: ['document.created'], delivery },
  });
  expect(result.status).toBe(201);
  return result.body._id as string;
}

const hourly = { type: 'schedule', cron: '0 * * * *' };

describe('triggers in the mocks', () => {
  it('take a webhook delivered over HTTP as their target, as the server does', async () => {
    const headers = await session();
    const id = await webhook('http');
    const created = await call('POST', '/api/triggers', {
      key: null,
      headers,
      json: { name: 'post it', source: hourly, target: { webhook: id } },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ target: { webhook: id }, active: true });
    const ran = await call('POST', `/api/triggers/${created.body._id}/run`, { key: null, headers });
    expect(ran.status).toBe(202);
    const other = await webhook('http');
    const moved = await call('PATCH', `/api/triggers/${created.body._id}`, {
      key: null,
      headers,
      json: { target: { webhook: other } },
    });
    expect(moved.body.target).toEqual({ webhook: other });
  });

  it('refuse a webhook that does not exist (404) and one delivered as a stream (400)', async () => {
    const headers = await session();
    const missing = await call('POST', '/api/triggers', {
      key: null,
      headers,
      json: { name: 'nowhere', source: hourly, target: { webhook: 'wh_missing' } },
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('Webhook "wh_missing" not found in the trigger\'s cluster');
    const stream = await call('POST', '/api/triggers', {
      key: null,
      headers,
      json: { name: 'streamed', source: hourly, target: { webhook: await webhook('stream') } },
    });
    expect(stream.status).toBe(400);
    expect(stream.body.details).toMatchObject({ field: 'target.webhook' });
  });
});
