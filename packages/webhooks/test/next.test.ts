import { describe, expect, it, vi } from 'vitest';
import { verifyAsync, WebhookVerificationError } from '../src/index.js';
import { webhookHandler } from '../src/next.js';
import { delivery, FORMATTED_BODY, SECRET, tamperedDelivery } from './deliveries.js';

// As app/webhooks/route.ts would export it; Next.js calls it with a standard Request and a context.
const handle = vi.fn();
const POST = webhookHandler(
  { secret: SECRET },
  async ({ payload }, _request, context: { params: Promise<object> }) => {
    handle(payload, await context.params);
    return new Response(null, { status: 204 });
  },
);
const context = { params: Promise.resolve({ tenant: 'acme' }) };

const request = ({ body, headers }: { body: string; headers: Record<string, string | undefined> }) =>
  new Request('https://receiver.example/webhooks', {
    method: 'POST',
    body,
    headers: headers as Record<string, string>,
  });

describe('webhookHandler for Next.js route handlers', () => {
  it('calls the handler with the verified payload and the route context', async () => {
    const res = await POST(request(delivery()), context);
    expect(res.status).toBe(204);
    expect(handle).toHaveBeenCalledWith(JSON.parse(FORMATTED_BODY), { tenant: 'acme' });
  });

  it('answers 400 with the code of the failed check without calling the handler', async () => {
    handle.mockClear();
    const res = await POST(request(tamperedDelivery()), context);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'invalid_signature' });
    expect(handle).not.toHaveBeenCalled();
  });

  it('verifies the raw bytes where verifying the re-serialised request.json() fails', async () => {
    const parsed = await request(delivery()).json();
    const error = await verifyAsync(JSON.stringify(parsed), delivery().headers, SECRET).catch((e) => e);
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect(error.code).toBe('invalid_signature');
    expect((await POST(request(delivery()), context)).status).toBe(204);
  });
});
