import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyAsync, WebhookVerificationError } from '../src/index.js';
import { verify } from '../src/node.js';
import { delivery, FORMATTED_BODY, SECRET, tamperedDelivery } from './deliveries.js';

// The receivers of docs/webhooks.md that use no adapter, as written there (the secret passed in, events recorded).
const received: unknown[] = [];

/** "Plain Node.js http". */
function plainNodeReceiver(secret: string): Server {
  return createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk);
    const rawBody = Buffer.concat(chunks);
    try {
      verify(rawBody, req.headers, secret);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ code: error.code }));
      return;
    }
    received.push(JSON.parse(rawBody.toString('utf8')));
    res.writeHead(204).end();
  });
}

/** "Deno, Bun, Cloudflare Workers and other edge runtimes". */
const edgeReceiver = {
  async fetch(request: Request, env: { WEBHOOK_SECRET: string }): Promise<Response> {
    const rawBody = await request.text();
    try {
      await verifyAsync(rawBody, request.headers, env.WEBHOOK_SECRET);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      return Response.json({ code: error.code }, { status: 400 });
    }
    received.push(JSON.parse(rawBody));
    return new Response(null, { status: 204 });
  },
};

type Delivery = { body: string; headers: Record<string, string | undefined> };
const init = ({ body, headers }: Delivery) => ({
  method: 'POST',
  body,
  headers: headers as Record<string, string>,
});

describe('the plain Node.js http receiver', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = plainNodeReceiver(SECRET).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  });
  afterAll(() => server.close());

  it('accepts a delivery and refuses a tampered one', async () => {
    received.length = 0;
    expect((await fetch(url, init(delivery()))).status).toBe(204);
    const refused = await fetch(url, init(tamperedDelivery()));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ code: 'invalid_signature' });
    expect(received).toEqual([JSON.parse(FORMATTED_BODY)]);
  });
});

describe('the edge receiver', () => {
  it('accepts a delivery and refuses a tampered one', async () => {
    received.length = 0;
    const env = { WEBHOOK_SECRET: SECRET };
    expect((await edgeReceiver.fetch(new Request('https://r.example/', init(delivery())), env)).status).toBe(
      204,
    );
    const refused = await edgeReceiver.fetch(
      new Request('https://r.example/', init(tamperedDelivery())),
      env,
    );
    expect(await refused.json()).toEqual({ code: 'invalid_signature' });
    expect(received).toEqual([JSON.parse(FORMATTED_BODY)]);
  });
});
