import { spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DataPlatform } from '@dataplatform/sdk';
import { verifyAsync } from '@dataplatform/webhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, dp } from './binary.js';
import { useReferenceServer } from './reference-server.js';

const reference = useReferenceServer();

/** One request a local receiver got. */
interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A real HTTP receiver on loopback that records every request and answers 200. */
async function startReceiver() {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        path: request.url ?? '/',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0)) await thing.close();
});

async function until<T>(look: () => T | undefined, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = look();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('dp webhooks against the reference server', () => {
  it('creates a subscription, lists it, follows its delivery and attempt, and deletes it', async () => {
    const env = reference().env();
    const receiver = await startReceiver();
    open.push(receiver);
    const created = await dp(
      [
        'webhooks',
        'create',
        '--url',
        `${receiver.url}/hooks`,
        '--event',
        'document.created',
        '--collection',
        'e2e_hooked',
      ],
      { env },
    );
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const webhook = JSON.parse(created.stdout);
    expect(webhook).toMatchObject({ events: ['document.created'], collection: 'e2e_hooked', active: true });
    expect(webhook.secret).toMatch(/^whsec_/);

    const listed = JSON.parse((await dp(['webhooks', '--json'], { env })).stdout);
    expect(listed.data).toContainEqual(
      expect.objectContaining({ _id: webhook._id, url: `${receiver.url}/hooks` }),
    );
    expect(JSON.stringify(listed)).not.toContain(webhook.secret);

    expect((await dp(['data', 'insert', 'e2e_hooked', '{"_id":"h-1"}'], { env })).code).toBe(0);
    const received = await until(() => receiver.received[0], 'the delivery');
    await verifyAsync(received.body, received.headers, webhook.secret);

    // The attempt is recorded once the answer came back.
    let page: { data: { _id: string; status: string; documentId: string }[]; total: number } = {
      data: [],
      total: 0,
    };
    const deadline = Date.now() + 15_000;
    while (page.data[0]?.status !== 'succeeded' && Date.now() < deadline) {
      page = JSON.parse((await dp(['webhooks', 'deliveries', webhook._id, '--json'], { env })).stdout);
    }
    expect(page).toMatchObject({ total: 1, data: [{ status: 'succeeded', documentId: 'h-1' }] });
    const failedOnly = await dp(['webhooks', 'deliveries', webhook._id, '--status', 'failed'], { env });
    expect(failedOnly).toMatchObject({ code: 0, stdout: '' });
    const attempts = JSON.parse(
      (await dp(['webhooks', 'attempts', webhook._id, page.data[0]!._id, '--json'], { env })).stdout,
    );
    expect(attempts.data).toMatchObject([{ attempt: 1, status: 'succeeded', responseStatus: 200 }]);

    const deleted = await dp(['webhooks', 'delete', webhook._id, '--json', '--yes'], { env });
    expect(JSON.parse(deleted.stdout)).toEqual({ _id: webhook._id, deleted: true });
    const gone = await dp(['webhooks', 'deliveries', webhook._id], { env });
    expect(gone.code).toBe(4);
    expect(gone.stderr).toContain(`could not list the deliveries of webhook "${webhook._id}": 404 not_found`);
  });

  it('listen forwards a signed event to a local receiver, then Ctrl-C ends it with status 0 and its webhook is gone', async () => {
    const env = reference().env();
    const receiver = await startReceiver();
    open.push(receiver);
    const child = spawn(
      process.execPath,
      [BIN, 'webhooks', 'listen', '--forward-to', `${receiver.url}/local`, '--collection', 'e2e_listened'],
      { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env } },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    open.push({ close: async () => void child.kill('SIGKILL') });

    const secret = await until(
      () => /Signing secret of this session: (whsec_\S+)/.exec(stderr)?.[1],
      'the secret',
    );
    expect(stderr).toContain(`to ${receiver.url}/local (Ctrl-C to stop)`);
    const client = new DataPlatform({ baseUrl: env.DATAPLATFORM_BASE_URL, apiKey: env.DATAPLATFORM_API_KEY });
    const session = (await client.webhooks.list()).data.find((w) => w.url === `${receiver.url}/local`);
    // Stream-only: its url records the receiver, but the server never posts there (the session does).
    expect(session).toMatchObject({ delivery: 'stream', events: ['*'], collection: 'e2e_listened' });

    await client.data.create('e2e_listened', { _id: 'l-1', total: 7 });
    const received = await until(() => receiver.received[0], 'the forwarded event');
    expect(received.path).toBe('/local');
    // Signed for the session's secret, both the X-Webhook-Signature and the Standard Webhooks scheme.
    await verifyAsync(received.body, received.headers, secret);
    expect(received.headers['webhook-signature']).toMatch(/^v1,/);
    const event = JSON.parse(received.body);
    expect(event).toMatchObject({ type: 'document.created', collection: 'e2e_listened', documentId: 'l-1' });
    const line = await until(() => stdout.split('\n').find(Boolean), 'the attempt line');
    expect(JSON.parse(line)).toMatchObject({
      eventId: event.id,
      type: 'document.created',
      status: 200,
      error: null,
    });

    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(stderr).toContain(`Stopped; deleted the session's webhook ${session!._id}`);
    expect((await client.webhooks.list()).data.map((w) => w._id)).not.toContain(session!._id);
    // Forwarded once by the session; the server itself posted nothing to the receiver.
    expect(receiver.received).toHaveLength(1);
  });
});
