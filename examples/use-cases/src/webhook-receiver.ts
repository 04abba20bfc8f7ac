// A receiver that accepts only deliveries signed with its secret.
// Run: WEBHOOK_SECRET=whsec_… PORT=3000 pnpm webhook-receiver, then subscribe http://<host>:3000/hooks
// (`dp webhooks create --url … --secret …`, or client.webhooks.create).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verify, WebhookVerificationError } from '@dataplatform/webhooks/node';

const secret = process.env.WEBHOOK_SECRET ?? 'whsec_example-secret-of-this-receiver';

/** The receiver; listening on PORT (a free one when PORT is 0). */
export const server = createServer(async (request, response) => {
  if (request.method !== 'POST' || request.url !== '/hooks') return response.writeHead(404).end();
  // The signature covers the bytes as sent: verify them before parsing.
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  try {
    verify(body, request.headers, secret);
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    console.log('refused:', error.code);
    return response.writeHead(400).end(error.code);
  }
  const event = JSON.parse(body.toString('utf8')) as { type: string; collection: string; documentId: string };
  console.log(`${event.type} ${event.collection}/${event.documentId}`);
  // Answer at once; slow work belongs in a queue, or the sender times out and retries.
  response.writeHead(204).end();
});

server.listen(Number(process.env.PORT ?? 3000), () => {
  console.log(`listening on port ${(server.address() as AddressInfo).port}`);
});
