import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { parseArgs, testIO } from '../../../test/harness.js';
import { MOCK_BASE_URL, useMockApi } from '../../../test/mock-api.js';
import { createFactory } from '../../factory.js';
import { newWebhooksListenCommand, runWebhooksListen } from './listen.js';

const RECEIVER = 'http://receiver.test:3000/webhooks';
const STREAM = `${MOCK_BASE_URL}/api/v1/data/webhooks/:webhookId/events`;

/** One server-sent event as the server writes it: the event id, its type, and the body with signed headers. */
function sse(id: string, type: string) {
  const body = JSON.stringify({ id, type, collection: 'orders', documentId: id });
  const headers = {
    'content-type': 'application/json',
    'x-webhook-id': id,
    'x-webhook-signature': `sig-${id}`,
  };
  return `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify({ body, headers })}\n\n`;
}

/** An event-stream answer that sends `text` and then stays open (until the client goes) or ends. */
function streamAnswer(text: string, end: boolean) {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(`retry: 2000\n\n${text}`));
      if (end) controller.close();
    },
  });
  return new HttpResponse(body, { headers: { 'content-type': 'text/event-stream' } });
}

describe('dp webhooks listen: arguments', () => {
  it('parses the receiver, the session’s events and collection, or an existing webhook', async () => {
    expect(
      await parseArgs(newWebhooksListenCommand, [
        '--forward-to',
        RECEIVER,
        '--events',
        'document.created,document.deleted',
        '--collection',
        'orders',
      ]),
    ).toMatchObject({
      ok: true,
      options: {
        forwardTo: RECEIVER,
        events: ['document.created', 'document.deleted'],
        collection: 'orders',
      },
    });
    expect(
      await parseArgs(newWebhooksListenCommand, ['--forward-to', RECEIVER, '--webhook', 'wh_1', '--json']),
    ).toMatchObject({ ok: true, options: { forwardTo: RECEIVER, webhook: 'wh_1' }, flags: { json: true } });
  });

  it.each([
    [[]],
    [['--forward-to', 'localhost:3000']],
    [['--forward-to', 'ftp://example.com/']],
    [['--forward-to', RECEIVER, '--events', 'document.moved']],
    [['--forward-to', RECEIVER, '--webhook', 'wh_1', '--collection', 'orders']],
    [['--forward-to', RECEIVER, '--webhook', 'wh_1', '--events', '*']],
  ])('refuses %j with exit status 2', async (argv) => {
    expect(await parseArgs(newWebhooksListenCommand, argv)).toMatchObject({ ok: false, code: 2 });
  });
});

describe('dp webhooks listen: run', () => {
  const api = useMockApi();

  /** Runs the command in this process until `stop` aborts, over streams the test reads. */
  function listen(options: Parameters<typeof runWebhooksListen>[1], tty = false) {
    const { io, stdout, stderr } = testIO({
      env: { ...api.env, NO_COLOR: '1' },
      tty: { stdout: tty, stderr: tty },
    });
    const f = createFactory(io);
    const stop = new AbortController();
    const done = runWebhooksListen(f, options, stop.signal);
    return { done, stop: () => stop.abort(), stdout, stderr };
  }

  /** A receiver that records what it gets and answers with the statuses given, in turn. */
  function receiver(statuses: number[]) {
    const received: { body: string; headers: Record<string, string> }[] = [];
    api.use(
      http.post(RECEIVER, async ({ request }) => {
        const headers: Record<string, string> = {};
        request.headers.forEach((value, name) => {
          headers[name] = value;
        });
        received.push({ body: await request.text(), headers });
        const status = statuses[received.length - 1] ?? 200;
        return status === 0 ? HttpResponse.error() : new HttpResponse('ok', { status });
      }),
    );
    return received;
  }

  async function until(check: () => boolean) {
    const deadline = Date.now() + 5_000;
    while (!check()) {
      if (Date.now() > deadline) throw new Error('timed out waiting');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it('forwards each event with its signed headers, prints every attempt, reconnects after the last event, and deletes its webhook', async () => {
    const received = receiver([200, 500, 0]);
    const connections: (string | null)[] = [];
    api.use(
      http.get(STREAM, ({ request }) => {
        connections.push(request.headers.get('last-event-id'));
        // The first connection carries two events and drops; the second resumes and stays open.
        return connections.length === 1
          ? streamAnswer(sse('evt_1', 'document.created') + sse('evt_2', 'document.updated'), true)
          : streamAnswer(sse('evt_3', 'document.deleted'), false);
      }),
    );
    const session = listen({ forwardTo: RECEIVER, events: ['document.created'], collection: 'orders' });
    await until(() => received.length === 3);
    const [webhook] = api.mocks.store.webhooks();
    // Stream-only: the server never posts to the receiver itself, the session forwards to it.
    expect(webhook).toMatchObject({
      url: RECEIVER,
      delivery: 'stream',
      events: ['document.created'],
      collection: 'orders',
    });
    session.stop();
    await session.done;

    expect(connections).toEqual([null, 'evt_2']);
    expect(received[0]!.body).toBe(
      JSON.stringify({ id: 'evt_1', type: 'document.created', collection: 'orders', documentId: 'evt_1' }),
    );
    expect(received[0]!.headers).toMatchObject({
      'content-type': 'application/json',
      'x-webhook-id': 'evt_1',
      'x-webhook-signature': 'sig-evt_1',
      'user-agent': expect.stringMatching(/^dataplatform-cli\//),
    });
    const attempts = session
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(attempts).toMatchObject([
      { eventId: 'evt_1', type: 'document.created', status: 200, error: null },
      { eventId: 'evt_2', type: 'document.updated', status: 500, error: null },
      { eventId: 'evt_3', type: 'document.deleted', status: null, error: expect.any(String) },
    ]);
    const stderr = session.stderr();
    expect(stderr).toContain(`Ready! Forwarding the events of webhook ${webhook!._id} to ${RECEIVER}`);
    expect(stderr).toMatch(/Signing secret of this session: whsec_\S+/);
    expect(stderr).toContain('Connection lost (the server ended the stream); reconnecting in 1 s');
    expect(stderr).toContain('Reconnected; resuming after evt_2');
    expect(stderr).toContain(`Stopped; deleted the session's webhook ${webhook!._id}`);
    expect(api.mocks.store.webhooks()).toEqual([]);
    expect(api.requests()).toEqual([
      'POST /api/v1/data/webhooks',
      `GET /api/v1/data/webhooks/${webhook!._id}/events`,
      'POST /webhooks',
      'POST /webhooks',
      `GET /api/v1/data/webhooks/${webhook!._id}/events`,
      'POST /webhooks',
      `DELETE /api/v1/data/webhooks/${webhook!._id}`,
    ]);
  });

  it('resumes from the stream’s start when the connection drops before the first event', async () => {
    const received = receiver([200]);
    const connections: (string | null)[] = [];
    api.use(
      http.get(STREAM, ({ request }) => {
        connections.push(request.headers.get('last-event-id'));
        // The server names the start of a new stream with an id alone; this first connection then drops.
        return connections.length === 1
          ? streamAnswer('id: start_2026-11-21T10:00:00.000Z\n\n', true)
          : streamAnswer(sse('evt_1', 'document.created'), false);
      }),
    );
    const session = listen({ forwardTo: RECEIVER });
    await until(() => received.length === 1);
    session.stop();
    await session.done;
    expect(connections).toEqual([null, 'start_2026-11-21T10:00:00.000Z']);
  });

  it('follows an existing webhook without touching it, printing a line per attempt on a terminal', async () => {
    receiver([204]);
    api.use(http.get(STREAM, () => streamAnswer(sse('evt_9', 'document.created'), false)));
    const created = await fetch(`${MOCK_BASE_URL}/api/v1/data/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': api.env.DATAPLATFORM_API_KEY! },
      body: JSON.stringify({ url: 'https://example.com/hooks', events: ['*'] }),
    });
    const { _id } = (await created.json()) as { _id: string };
    const session = listen({ forwardTo: RECEIVER, webhook: _id }, true);
    await until(() => session.stdout().includes('\n'));
    session.stop();
    await session.done;
    expect(session.stdout()).toMatch(/^\d\d:\d\d:\d\d {2}document\.created {2}evt_9 {2}→ 204 \(\d+ ms\)\n$/);
    expect(session.stderr()).not.toContain('Signing secret');
    expect(session.stderr()).toContain('Stopped');
    expect(api.mocks.store.webhooks()).toHaveLength(1);
    expect(api.requests()).toEqual([
      'POST /api/v1/data/webhooks',
      `GET /api/v1/data/webhooks/${_id}/events`,
      'POST /webhooks',
    ]);
  });

  it('fails with status 4 when the webhook does not exist, and deletes its own when the first connection fails', async () => {
    const missing = listen({ forwardTo: RECEIVER, webhook: 'wh_missing' });
    await expect(missing.done).rejects.toMatchObject({
      operation: 'follow the events of webhook "wh_missing"',
      cause: expect.objectContaining({ status: 404 }),
    });
    api.use(
      http.get(STREAM, () =>
        HttpResponse.json({ error: 'down', code: 'forbidden', requestId: 'r' }, { status: 403 }),
      ),
    );
    const refused = listen({ forwardTo: RECEIVER });
    await expect(refused.done).rejects.toMatchObject({ cause: expect.objectContaining({ status: 403 }) });
    expect(api.mocks.store.webhooks()).toEqual([]);
    expect(api.requests()).toEqual([
      'GET /api/v1/data/webhooks/wh_missing/events',
      'POST /api/v1/data/webhooks',
      expect.stringMatching(/^GET \/api\/v1\/data\/webhooks\/wh_\w+\/events$/),
      expect.stringMatching(/^DELETE \/api\/v1\/data\/webhooks\/wh_\w+$/),
    ]);
  });
});
