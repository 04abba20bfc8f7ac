import { ApiKeyWithSecret, Cluster } from '@dataplatform/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { bearer, forEachEngine, type SignedUp, signUp, type TestServer } from './helpers.js';
import { openStream, started } from './webhooks/event-stream.js';

const MAX_STREAMS = 3;

forEachEngine(
  (server) => {
    let t: TestServer;
    let user: SignedUp;
    beforeAll(async () => {
      t = server();
      user = await signUp(t);
    });

    const as = (method: string, path: string, body?: unknown) =>
      t.call(method, path, { key: null, headers: bearer(user.token), body });
    const createKey = async (body: Record<string, unknown> = {}) => {
      const res = await as('POST', '/api/keys', {
        name: 'live',
        scopes: ['data:read', 'data:write'],
        ...body,
      });
      expect(res.status).toBe(201);
      return ApiKeyWithSecret.parse(await res.json());
    };
    const watch = async (headers: Record<string, string>) => {
      const stream = await openStream(`${t.url}/api/v1/data/watched/changes`, headers);
      expect(stream.status).toBe(200);
      await started(stream);
      return stream;
    };
    /** The stream ends with one error event of this code, after the events it had sent. */
    const endsWith = async (stream: Awaited<ReturnType<typeof watch>>, code: string) => {
      await stream.ended;
      const last = stream.events.at(-1)!;
      expect(last.event).toBe('error');
      expect(JSON.parse(last.data!).code).toBe(code);
    };

    /** As `endsWith`, and without waiting for some later check (10 s, as `expectSoon`). */
    const endsSoon = async (stream: Awaited<ReturnType<typeof watch>>, code: string) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the stream did not end with ${code}`)), 10_000);
      });
      try {
        await Promise.race([endsWith(stream, code), late]);
      } finally {
        clearTimeout(timer);
      }
    };

    describe('limits of open change streams', () => {
      it(`answers 429 too_many_streams past ${MAX_STREAMS} open streams of one key, and counts a closed one out`, async () => {
        const { secret } = await createKey();
        const open = [];
        for (let i = 0; i < MAX_STREAMS; i++) open.push(await watch({ 'x-api-key': secret }));
        const refused = await t.call('GET', '/api/v1/data/watched/changes', { key: secret });
        expect(refused.status).toBe(429);
        expect((await refused.json()).code).toBe('too_many_streams');
        // Another key of the same user has a limit of its own.
        const other = await createKey();
        const ofOther = await watch({ 'x-api-key': other.secret });
        ofOther.close();
        open.pop()!.close();
        await expectSoon(async () => (await watchStatus(secret)) === 200);
        for (const stream of open) stream.close();
      });

      it('counts the streams of a signed-in user together, whatever the session', async () => {
        const open = [];
        for (let i = 0; i < MAX_STREAMS; i++) open.push(await watch(bearer(user.token)));
        const refused = await as('GET', '/api/v1/data/watched/changes');
        expect(refused.status).toBe(429);
        expect((await refused.json()).code).toBe('too_many_streams');
        for (const stream of open) stream.close();
      });
    });

    describe('a change stream ends when its credential stops holding', () => {
      it.each([
        ['paused', 'POST', 'pause', 'key_paused'],
        ['rotated', 'POST', 'rotate', 'unauthorized'],
        ['deleted', 'DELETE', '', 'unauthorized'],
      ])('ends with an error event when the key is %s', async (_, method, action, code) => {
        const { key, secret } = await createKey();
        const stream = await watch({ 'x-api-key': secret });
        await t.call('POST', '/api/v1/data/watched', { key: secret, body: { _id: `before-${action}` } });
        await stream.waitFor(1);
        const res = await as(method, `/api/keys/${key._id}${action ? `/${action}` : ''}`);
        expect(res.status).toBeLessThan(300);
        await endsWith(stream, code);
        // The error event names the last event sent, to resume from with a working key.
        expect(JSON.parse(stream.events.at(-1)!.data!).lastEventId).toBe(stream.events[0]!.id);
      });

      it("ends when the key's cluster is paused, and a paused cluster opens no stream", async () => {
        await t.server.storage.accounts.setPlan(user.user._id, 'team', new Date().toISOString());
        const created = await as('POST', '/api/clusters', { name: 'live' });
        expect(created.status).toBe(201);
        const cluster = Cluster.parse(await created.json());
        const { secret } = await createKey({ clusterId: cluster._id });
        const stream = await watch({ 'x-api-key': secret });
        expect((await as('POST', `/api/clusters/${cluster._id}/pause`)).status).toBe(200);
        await endsWith(stream, 'cluster_unavailable');
        const refused = await t.call('GET', '/api/v1/data/watched/changes', { key: secret });
        expect(refused.status).toBe(503);
      });

      it('keeps streams of other keys open', async () => {
        const kept = await createKey();
        const ended = await createKey();
        const open = await watch({ 'x-api-key': kept.secret });
        const closing = await watch({ 'x-api-key': ended.secret });
        await as('POST', `/api/keys/${ended.key._id}/pause`);
        await endsWith(closing, 'key_paused');
        await t.call('POST', '/api/v1/data/watched', { key: kept.secret, body: { _id: 'after-pause' } });
        const [event] = await open.waitFor(1);
        expect(JSON.parse(event!.data!).documentId).toBe('after-pause');
        open.close();
      });
    });

    describe('the change streams of a session', () => {
      const signIn = async (someone: SignedUp) => {
        const res = await t.call('POST', '/api/auth/signin', {
          key: null,
          body: { email: someone.email, password: someone.password },
        });
        expect(res.status).toBe(200);
        return (await res.json()).token as string;
      };

      it("end when that session logs out, and the user's other sessions keep theirs", async () => {
        const someone = await signUp(t);
        const other = await signIn(someone);
        const ending = await watch(bearer(someone.token));
        const kept = await watch(bearer(other));
        const out = await t.call('POST', '/api/auth/logout', { key: null, headers: bearer(someone.token) });
        expect(out.status).toBe(200);
        await endsSoon(ending, 'session_expired');
        const body = { _id: 'after-logout' };
        await t.call('POST', '/api/v1/data/watched', { key: null, headers: bearer(other), body });
        const [event] = await kept.waitFor(1);
        expect(JSON.parse(event!.data!).documentId).toBe('after-logout');
        kept.close();
      });

      it('all end when the user logs out of every session', async () => {
        const someone = await signUp(t);
        const other = await signIn(someone);
        const streams = [await watch(bearer(someone.token)), await watch(bearer(other))];
        const out = await t.call('POST', '/api/auth/logout-all', { key: null, headers: bearer(other) });
        expect(out.status).toBe(200);
        for (const stream of streams) await endsSoon(stream, 'session_expired');
      });
    });

    describe('realtime subscriptions', () => {
      it('count against the same limit, and end with an error message when the key is paused', async () => {
        const { key, secret } = await createKey();
        const sse = await watch({ 'x-api-key': secret });
        const socket = new WebSocket(`${t.url.replace('http', 'ws')}/api/v1/realtime`, {
          headers: { 'x-api-key': secret },
        });
        const messages: { type: string; id?: string; code?: string }[] = [];
        socket.on('message', (data) => messages.push(JSON.parse(String(data))));
        await new Promise((resolve) => socket.once('open', resolve));
        for (const id of ['a', 'b', 'c'])
          socket.send(JSON.stringify({ type: 'subscribe', id, collection: 'watched' }));
        const ofId = (id: string) => messages.filter((m) => m.id === id);
        await waitUntil(() => ['a', 'b', 'c'].every((id) => ofId(id).length > 0));
        // The SSE stream and two subscriptions fill the limit of three.
        expect(messages.filter((m) => m.type === 'subscribed')).toHaveLength(2);
        expect(messages.find((m) => m.type === 'error')).toMatchObject({ code: 'too_many_streams' });

        expect((await as('POST', `/api/keys/${key._id}/pause`)).status).toBe(200);
        await endsWith(sse, 'key_paused');
        const subscribed = messages.filter((m) => m.type === 'subscribed').map((m) => m.id!);
        await waitUntil(() => subscribed.every((id) => ofId(id).some((m) => m.code === 'key_paused')));
        // A new subscription on the open connection is refused too.
        socket.send(JSON.stringify({ type: 'subscribe', id: 'd', collection: 'watched' }));
        await waitUntil(() => ofId('d').length > 0);
        expect(ofId('d')[0]).toMatchObject({ type: 'error', code: 'key_paused' });
        socket.close();
      });
    });

    async function watchStatus(key: string): Promise<number> {
      const stream = await openStream(`${t.url}/api/v1/data/watched/changes`, { 'x-api-key': key });
      stream.close();
      return stream.status!;
    }
  },
  { config: { maxStreams: MAX_STREAMS } },
);

/** Waits until `condition` holds. */
async function waitUntil(condition: () => boolean): Promise<void> {
  await expectSoon(async () => condition());
}

/** Polls `condition` until it holds (the server counts a closed stream out when it sees the connection go). */
async function expectSoon(condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
