import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookPlugin } from '../src/fastify.js';
import { verify, type WebhookVerificationError } from '../src/node.js';
import { delivery, FORMATTED_BODY, SECRET, tamperedDelivery } from './deliveries.js';

let app: FastifyInstance;

beforeAll(async () => {
  app = Fastify();
  await app.register(async (scope) => {
    await scope.register(webhookPlugin, { secret: SECRET, bodyLimit: 1024 });
    scope.post('/webhooks', async (request) => ({ payload: request.webhook?.payload, body: request.body }));
    scope.post(
      '/webhooks/validated',
      {
        schema: {
          body: { type: 'object', required: ['type'], properties: { type: { const: 'document.created' } } },
        },
      },
      async () => ({ validated: true }),
    );
  });
  // Outside the plugin's scope: Fastify's own JSON parser, and the mistake the plugin exists for.
  app.post('/parsed-then-restringified', async (request, reply) => {
    try {
      verify(JSON.stringify(request.body), request.headers, SECRET);
      return reply.code(204).send();
    } catch (error) {
      return reply.code(400).send({ code: (error as WebhookVerificationError).code });
    }
  });
  app.post('/elsewhere', async (request) => ({ body: request.body }));
  await app.ready();
});

afterAll(() => app.close());

const post = (
  url: string,
  { body, headers }: { body: string; headers: Record<string, string | undefined> },
) => app.inject({ method: 'POST', url, payload: body, headers });

describe('webhookPlugin on Fastify', () => {
  it('passes a signed delivery to the route with its payload parsed', async () => {
    const res = await post('/webhooks', delivery());
    expect(res.statusCode).toBe(200);
    const expected = JSON.parse(FORMATTED_BODY);
    expect(res.json()).toEqual({ payload: expected, body: expected });
  });

  it('verifies the raw bytes where verifying the re-serialised parsed body fails', async () => {
    const naive = await post('/parsed-then-restringified', delivery());
    expect(naive.statusCode).toBe(400);
    expect(naive.json()).toEqual({ code: 'invalid_signature' });
    expect((await post('/webhooks', delivery())).statusCode).toBe(200);
  });

  it('answers 400 with the code of the failed check', async () => {
    const res = await post('/webhooks', tamperedDelivery());
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_signature' });
  });

  it('verifies requests of every content type, and requests without a body', async () => {
    const { body, headers } = delivery();
    expect(
      (await post('/webhooks', { body, headers: { ...headers, 'content-type': 'text/plain' } })).statusCode,
    ).toBe(200);
    const tampered = tamperedDelivery();
    const asText = await post('/webhooks', {
      ...tampered,
      headers: { ...tampered.headers, 'content-type': 'text/plain' },
    });
    expect(asText.json()).toMatchObject({ code: 'invalid_signature' });
    const bodyless = await app.inject({ method: 'POST', url: '/webhooks' });
    expect(bodyless.statusCode).toBe(400);
    expect(bodyless.json()).toMatchObject({ code: 'missing_header' });
  });

  it('validates the route schema against the verified payload', async () => {
    expect((await post('/webhooks/validated', delivery())).json()).toEqual({ validated: true });
    const wrongType = delivery(JSON.stringify({ type: 'document.deleted' }));
    const invalid = await post('/webhooks/validated', wrongType);
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({ code: 'FST_ERR_VALIDATION' });
  });

  it('lets Fastify answer 413 to a body over the limit', async () => {
    const res = await post('/webhooks', delivery(JSON.stringify({ filler: 'x'.repeat(2000) })));
    expect(res.statusCode).toBe(413);
  });

  it('leaves routes outside its scope alone', async () => {
    const res = await app.inject({ method: 'POST', url: '/elsewhere', payload: { a: 1 } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ body: { a: 1 } });
  });
});
