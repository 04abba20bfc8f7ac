import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { webhookMiddleware } from '../src/hono.js';
import { verifyAsync, type WebhookVerificationError } from '../src/index.js';
import { delivery, FORMATTED_BODY, SECRET, tamperedDelivery } from './deliveries.js';

const app = new Hono();
app.post('/webhooks', webhookMiddleware({ secret: SECRET }), async (c) =>
  // The route can still read the body: Hono caches it.
  c.json({ payload: c.get('webhook').payload, text: await c.req.text() }),
);
// The mistake the middleware exists for: verifying what JSON.stringify makes of the parsed body.
app.post('/parsed-then-restringified', async (c) => {
  try {
    await verifyAsync(JSON.stringify(await c.req.json()), c.req.raw.headers, SECRET);
    return c.body(null, 204);
  } catch (error) {
    return c.json({ code: (error as WebhookVerificationError).code }, 400);
  }
});

const post = (
  path: string,
  { body, headers }: { body: string; headers: Record<string, string | undefined> },
) => app.request(path, { method: 'POST', body, headers: headers as Record<string, string> });

describe('webhookMiddleware on Hono', () => {
  it('passes a signed delivery to the route with its payload parsed', async () => {
    const res = await post('/webhooks', delivery());
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ payload: JSON.parse(FORMATTED_BODY), text: FORMATTED_BODY });
  });

  it('verifies the raw bytes where verifying the re-serialised parsed body fails', async () => {
    const naive = await post('/parsed-then-restringified', delivery());
    expect(naive.status).toBe(400);
    expect(await naive.json()).toEqual({ code: 'invalid_signature' });
    expect((await post('/webhooks', delivery())).status).toBe(200);
  });

  it('answers 400 with the code of the failed check', async () => {
    const res = await post('/webhooks', tamperedDelivery());
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'invalid_signature' });
  });
});

describe('webhookMiddleware with the secret from the context', () => {
  // As on Cloudflare Workers, where the secret is a binding known per request.
  const workers = new Hono<{ Bindings: { WEBHOOK_SECRET: string } }>();
  workers.post('/webhooks', webhookMiddleware({ secret: (c) => c.env.WEBHOOK_SECRET }), (c) =>
    c.json(c.get('webhook').payload),
  );

  it('reads the secret for each request', async () => {
    const { body, headers } = delivery();
    const init = { method: 'POST', body, headers: headers as Record<string, string> };
    const accepted = await workers.request('/webhooks', init, { WEBHOOK_SECRET: SECRET });
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toEqual(JSON.parse(FORMATTED_BODY));
    const refused = await workers.request('/webhooks', init, {
      WEBHOOK_SECRET: 'whsec_9d8bUzR2kCNd0AgfjW8YbB2wBzu3RryP',
    });
    expect(refused.status).toBe(400);
  });
});
