import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { keepRawBody, type WebhookRequest, webhookMiddleware } from '../src/express.js';
import { verify, WebhookVerificationError } from '../src/node.js';
import { delivery, FORMATTED_BODY, SECRET, tamperedDelivery } from './deliveries.js';

const onFailure = vi.fn();
let url: string;
let close: () => void;

beforeAll(async () => {
  const app = express();
  const echo = (req: express.Request, res: express.Response) => {
    res.json({ payload: (req as unknown as WebhookRequest).webhook.payload, body: req.body });
  };
  app.post('/webhooks', webhookMiddleware({ secret: SECRET, onFailure, bodyLimit: 1024 }), echo);
  app.post('/after-raw', express.raw({ type: '*/*' }), webhookMiddleware({ secret: SECRET }), echo);
  app.post('/after-text', express.text({ type: '*/*' }), webhookMiddleware({ secret: SECRET }), echo);
  // The mistake the adapter exists for: verifying what JSON.stringify makes of the parsed body.
  app.post('/parsed-then-restringified', express.json(), (req, res) => {
    try {
      verify(JSON.stringify(req.body), req.headers, SECRET);
      res.sendStatus(204);
    } catch (error) {
      res.status(400).json({ code: (error as WebhookVerificationError).code });
    }
  });
  const behindJson = express.Router();
  behindJson.use(express.json({ verify: keepRawBody }));
  behindJson.post('/webhooks', webhookMiddleware({ secret: SECRET }), echo);
  app.use('/behind-json', behindJson);
  const behindJsonWithoutRaw = express.Router();
  behindJsonWithoutRaw.use(express.json());
  behindJsonWithoutRaw.post('/webhooks', webhookMiddleware({ secret: SECRET }), echo);
  app.use('/behind-json-without-raw', behindJsonWithoutRaw);
  app.use((error: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(500).json({ message: error.message });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});

afterAll(() => close());

const post = (
  path: string,
  { body, headers }: { body: string; headers: Record<string, string | undefined> },
) => fetch(`${url}${path}`, { method: 'POST', body, headers: headers as Record<string, string> });

describe('webhookMiddleware on Express', () => {
  it('passes a signed delivery to the route with its payload parsed', async () => {
    const res = await post('/webhooks', delivery());
    expect(res.status).toBe(200);
    const expected = JSON.parse(FORMATTED_BODY);
    expect(await res.json()).toEqual({ payload: expected, body: expected });
  });

  it('verifies the raw bytes where verifying the re-serialised parsed body fails', async () => {
    const naive = await post('/parsed-then-restringified', delivery());
    expect(naive.status).toBe(400);
    expect(await naive.json()).toEqual({ code: 'invalid_signature' });
    expect((await post('/webhooks', delivery())).status).toBe(200);
  });

  it('answers 400 with the code of the failed check, and reports it, without running the route', async () => {
    const res = await post('/webhooks', tamperedDelivery());
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 'invalid_signature',
      error: expect.stringContaining('raw'),
    });
    expect(onFailure).toHaveBeenCalledWith(expect.any(WebhookVerificationError));

    const unsigned = await post('/webhooks', { body: '{}', headers: { 'content-type': 'application/json' } });
    expect(await unsigned.json()).toMatchObject({ code: 'missing_header' });
  });

  it('refuses a signed body that is not JSON', async () => {
    const res = await post('/webhooks', delivery('not json'));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'invalid_payload' });
  });

  it('answers 413 to a body over the limit', async () => {
    const res = await post('/webhooks', delivery(JSON.stringify({ filler: 'x'.repeat(2000) })));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'payload_too_large' });
  });

  it('works after express.raw() and express.text()', async () => {
    expect((await post('/after-raw', delivery())).status).toBe(200);
    expect((await post('/after-text', delivery())).status).toBe(200);
  });

  it('works behind express.json() that keeps the raw body with keepRawBody', async () => {
    const res = await post('/behind-json/webhooks', delivery());
    expect(res.status).toBe(200);
    expect((await res.json()).payload).toEqual(JSON.parse(FORMATTED_BODY));
    expect((await post('/behind-json/webhooks', tamperedDelivery())).status).toBe(400);
  });

  it('fails loudly, naming the fix, behind express.json() that dropped the raw body', async () => {
    const res = await post('/behind-json-without-raw/webhooks', delivery());
    expect(res.status).toBe(500);
    expect((await res.json()).message).toContain('keepRawBody');
  });
});
