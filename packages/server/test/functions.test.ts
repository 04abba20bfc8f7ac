import { beforeAll, describe, expect, it } from 'vitest';
import { asUser, memberAs } from './cluster-helpers.js';
import { forEachEngine, type SignedUp, signUp, type TestServer } from './helpers.js';

const HELLO = `export default async function (input, ctx) {
  ctx.log('hello', input);
  return { echo: input, env: ctx.env.GREETING ?? null };
}`;

/** Signs in as the development account, whose cluster the test keys belong to. */
async function devSession(t: TestServer): Promise<SignedUp> {
  const dev = t.server.devAccount!;
  const res = await t.call('POST', '/api/auth/signin', {
    key: null,
    body: { email: dev.email, password: dev.password },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const body = (await res.json()) as { token: string; user: SignedUp['user'] };
  return { token: body.token, user: body.user, email: dev.email, password: dev.password };
}

forEachEngine(
  (server) => {
    let t: TestServer;
    let dev: SignedUp;
    let names = 0;
    const nextName = () => `fn-${++names}`;

    async function deploy(code: string, extra: Record<string, unknown> = {}) {
      const res = await asUser(t, dev, 'POST', '/api/functions', { name: nextName(), code, ...extra });
      expect(res.status, await res.clone().text()).toBe(201);
      return (await res.json()) as { _id: string; name: string; version: number };
    }

    async function invoke(id: string, input?: unknown) {
      return asUser(t, dev, 'POST', `/api/functions/${id}/invoke`, input);
    }

    beforeAll(async () => {
      t = server();
      dev = await devSession(t);
    });

    describe('deploying', () => {
      it('stores version 1 with the default limits, and a deploy makes version 2', async () => {
        const fn = await deploy(HELLO);
        expect(fn).toMatchObject({ version: 1, timeoutMs: 1000, memoryMb: 64 });
        const next = await asUser(t, dev, 'PUT', `/api/functions/${fn._id}`, {
          code: HELLO,
          timeoutMs: 2000,
        });
        expect(next.status).toBe(200);
        expect(await next.json()).toMatchObject({ version: 2, timeoutMs: 2000 });
        const one = await asUser(t, dev, 'GET', `/api/functions/${fn._id}`);
        expect(await one.json()).toMatchObject({ version: 2, code: HELLO });
      });

      it.each([
        ['a syntax error', 'export default async function ( {'],
        ['no default export', 'export const x = 1;'],
        ['an import', "import fs from 'fs'; export default () => fs;"],
        ['a throw while loading', "throw new Error('boom'); export default () => 1;"],
      ])('refuses %s with 400 and stores nothing', async (_, code) => {
        const before = (await (await asUser(t, dev, 'GET', '/api/functions?limit=1000')).json()) as {
          total: number;
        };
        const res = await asUser(t, dev, 'POST', '/api/functions', { name: nextName(), code });
        expect(res.status, await res.clone().text()).toBe(400);
        expect(await res.json()).toMatchObject({ code: 'validation_error', details: { field: 'code' } });
        const after = (await (await asUser(t, dev, 'GET', '/api/functions?limit=1000')).json()) as {
          total: number;
        };
        expect(after.total).toBe(before.total);
      });

      it.each([
        ['a name that breaks the collection-name rule', { name: '1bad name', code: HELLO }],
        ['a timeout above 30 s', { name: 'ok-name', code: HELLO, timeoutMs: 30_001 }],
        ['a memory limit above 256 MiB', { name: 'ok-name', code: HELLO, memoryMb: 257 }],
        ['code over 1 MiB', { name: 'ok-name', code: `//${'x'.repeat(1024 * 1024)}` }],
      ])('refuses %s with 400', async (_, body) => {
        const res = await asUser(t, dev, 'POST', '/api/functions', body);
        expect(res.status, await res.clone().text()).toBe(400);
      });

      it('refuses a second function of the same name in a cluster with 409', async () => {
        const fn = await deploy(HELLO);
        const res = await asUser(t, dev, 'POST', '/api/functions', { name: fn.name, code: HELLO });
        expect(res.status).toBe(409);
      });
    });

    describe('invoking', () => {
      it('answers the result, the log lines and the duration', async () => {
        const fn = await deploy(HELLO, { env: { GREETING: 'hi' } });
        const res = await invoke(fn._id, { n: 1 });
        expect(res.status, await res.clone().text()).toBe(200);
        const body = (await res.json()) as { result: unknown; logs: string[]; durationMs: number };
        expect(body.result).toEqual({ echo: { n: 1 }, env: 'hi' });
        expect(body.logs).toEqual(['hello {"n":1}']);
        expect(body.durationMs).toBeGreaterThanOrEqual(0);
      });

      it('takes any JSON value as input, and none as null', async () => {
        const fn = await deploy('export default (input) => ({ input });');
        expect(await (await invoke(fn._id, [1, 'two'])).json()).toMatchObject({
          result: { input: [1, 'two'] },
        });
        expect(await (await invoke(fn._id)).json()).toMatchObject({ result: { input: null } });
      });

      it('answers a throw with 422 function_error and its message', async () => {
        const fn = await deploy("export default () => { throw new Error('nope'); };");
        const res = await invoke(fn._id);
        expect(res.status).toBe(422);
        const body = (await res.json()) as { code: string; details: { message: string; stack: string } };
        expect(body.code).toBe('function_error');
        expect(body.details.message).toBe('nope');
      });

      it('stops an endless loop with 422 function_timeout while other requests are served', async () => {
        const fn = await deploy('export default () => { for (;;) {} };', { timeoutMs: 100 });
        const looping = invoke(fn._id);
        const meanwhile = await t.call('GET', '/api/v1/data/orders');
        expect(meanwhile.status).toBe(200);
        const res = await looping;
        expect(res.status).toBe(422);
        expect(await res.json()).toMatchObject({ code: 'function_timeout', details: { timeoutMs: 100 } });
      });

      it('stops a memory bomb with 422 function_memory_exceeded', async () => {
        const fn = await deploy(
          "export default () => { const keep = []; for (;;) keep.push('x'.repeat(1 << 20) + keep.length); };",
          { memoryMb: 16, timeoutMs: 30_000 },
        );
        const res = await invoke(fn._id);
        expect(res.status, await res.clone().text()).toBe(422);
        expect(await res.json()).toMatchObject({
          code: 'function_memory_exceeded',
          details: { memoryMb: 16 },
        });
        // The function runs again afterwards, in a fresh isolate.
        const again = await invoke(fn._id);
        expect(again.status).toBe(422);
      });

      it('reads and writes its cluster through ctx.data, and the data API sees the writes', async () => {
        const fn = await deploy(`export default async function (input, ctx) {
          const doc = await ctx.data.create('fn_orders', { total: input.total });
          await ctx.data.update('fn_orders', doc._id, { paid: true });
          const again = await ctx.data.get('fn_orders', doc._id);
          const page = await ctx.data.list('fn_orders', { limit: 10 });
          return { again, total: page.total };
        }`);
        const res = await invoke(fn._id, { total: 7 });
        expect(res.status, await res.clone().text()).toBe(200);
        const { result } = (await res.json()) as { result: { again: { _id: string }; total: number } };
        expect(result.again).toMatchObject({ total: 7, paid: true });
        const stored = await t.call('GET', `/api/v1/data/fn_orders/${result.again._id}`);
        expect(await stored.json()).toMatchObject({ total: 7, paid: true });
      });

      it('gives ctx.data the checks of the HTTP routes, as errors with the API code', async () => {
        const fn = await deploy(`export default async function (input, ctx) {
          const codes = [];
          for (const attempt of [
            () => ctx.data.create('sql', {}),
            () => ctx.data.create('ok', { _secret: 1 }),
            () => ctx.data.get('ok', 'missing'),
          ]) {
            try { await attempt(); codes.push('none'); } catch (error) { codes.push(error.code); }
          }
          return codes;
        }`);
        const res = await invoke(fn._id);
        expect(await res.json()).toMatchObject({
          result: ['reserved_collection', 'invalid_body', 'not_found'],
        });
      });

      it('records every run, newest first, with its status and logs', async () => {
        const fn = await deploy(
          "export default (input, ctx) => { ctx.log('run', input); if (input) throw new Error('x'); };",
        );
        await invoke(fn._id, 0);
        await invoke(fn._id, 1);
        const res = await asUser(t, dev, 'GET', `/api/functions/${fn._id}/invocations`);
        const page = (await res.json()) as {
          data: { status: string; trigger: string; logs: string[] }[];
          total: number;
        };
        expect(page.total).toBe(2);
        expect(page.data.map((i) => [i.status, i.trigger, i.logs])).toEqual([
          ['error', 'http', ['run 1']],
          ['ok', 'http', ['run 0']],
        ]);
      });

      it('records every run of a burst, and a run whose function is deleted at once leaves no record behind', async () => {
        const fn = await deploy('export default (input) => input;');
        const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => invoke(fn._id, i)));
        expect(answers.map((res) => res.status)).toEqual(Array(20).fill(200));
        const res = await asUser(t, dev, 'GET', `/api/functions/${fn._id}/invocations?limit=100`);
        expect(((await res.json()) as { total: number }).total).toBe(20);

        // Its invocation waits for the next batch; when the delete comes first, the batch leaves the run out.
        const gone = await deploy('export default (input) => input;');
        expect((await invoke(gone._id, 1)).status).toBe(200);
        expect((await asUser(t, dev, 'DELETE', `/api/functions/${gone._id}`)).status).toBe(200);
        const again = await invoke(fn._id, { after: true });
        expect(again.status).toBe(200);
        const after = await asUser(t, dev, 'GET', `/api/functions/${fn._id}/invocations?limit=1`);
        expect(((await after.json()) as { total: number }).total).toBe(21);
      });
    });

    describe('warm isolates', () => {
      it("starts a version's first run in the isolate its deploy checked, module loaded once", async () => {
        const code = 'const loadedAt = Date.now(); export default () => loadedAt;';
        const fn = await deploy(code);
        await new Promise((resolve) => setTimeout(resolve, 300));
        const before = Date.now();
        const first = (await (await invoke(fn._id)).json()) as { result: number };
        expect(first.result).toBeLessThan(before - 200);
        const next = await asUser(t, dev, 'PUT', `/api/functions/${fn._id}`, { code });
        expect(next.status).toBe(200);
        const second = (await (await invoke(fn._id)).json()) as { result: number };
        expect(second.result).toBeGreaterThan(first.result);
      });

      it('lets the runs of a version in flight end when a deploy replaces it', async () => {
        const slow =
          'export default (input) => { const until = Date.now() + 400; while (Date.now() < until); return input; };';
        const fn = await deploy(slow);
        const running = invoke(fn._id, { v: 1 });
        await new Promise((resolve) => setTimeout(resolve, 100));
        const next = await asUser(t, dev, 'PUT', `/api/functions/${fn._id}`, { code: slow });
        expect(next.status).toBe(200);
        const answer = await running;
        expect(answer.status, await answer.clone().text()).toBe(200);
        expect(await answer.json()).toMatchObject({ result: { v: 1 } });
        expect(await (await invoke(fn._id, { v: 2 })).json()).toMatchObject({ result: { v: 2 } });
      });
    });

    describe('the sandbox', () => {
      /** Each probe returns what it could reach; none may reach anything of the host. */
      it.each([
        ['process', 'typeof process'],
        ['require', 'typeof require'],
        ['timers', '[typeof setTimeout, typeof setInterval, typeof queueMicrotask === "function"]'],
        ['fetch', 'typeof fetch'],
        [
          'the host through the Function constructor',
          "(() => { try { return typeof (function(){}).constructor('return process')(); } catch (e) { return 'threw'; } })()",
        ],
        [
          'the host through globalThis',
          'Object.getOwnPropertyNames(globalThis).filter((n) => /process|require|Buffer|ivm|host|\\$/.test(n))',
        ],
      ])('reaches no %s', async (_, probe) => {
        const fn = await deploy(`export default () => ${probe};`);
        const res = await invoke(fn._id);
        expect(res.status, await res.clone().text()).toBe(200);
        const { result } = (await res.json()) as { result: unknown };
        const reached = JSON.stringify(result);
        expect(reached).not.toMatch(/object|function/);
      });

      it('refuses a dynamic import', async () => {
        const fn = await deploy(
          "export default async () => { try { await import('fs'); return 'imported'; } catch { return 'refused'; } };",
        );
        const res = await invoke(fn._id);
        expect(await res.json()).toMatchObject({ result: 'refused' });
      });

      it('keeps a prototype change of one function away from the host and from other functions', async () => {
        const polluter = await deploy(
          'export default () => { Object.prototype.polluted = 1; Array.prototype.push = null; return 1; };',
        );
        const observer = await deploy('export default () => [({}).polluted ?? null, typeof [].push];');
        expect((await invoke(polluter._id)).status).toBe(200);
        expect(await (await invoke(observer._id)).json()).toMatchObject({ result: [null, 'function'] });
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      });

      it('survives deep recursion as a function_error', async () => {
        const fn = await deploy('export default () => { const f = (n) => f(n + 1) + 1; return f(0); };');
        const res = await invoke(fn._id);
        expect(res.status).toBe(422);
        expect(await res.json()).toMatchObject({ code: 'function_error' });
      });

      it('stops a huge string at the memory limit', async () => {
        const fn = await deploy("export default () => { let s = 'x'; for (;;) s += s; };", { memoryMb: 16 });
        const res = await invoke(fn._id);
        expect(res.status).toBe(422);
        expect(['function_memory_exceeded', 'function_error']).toContain(
          ((await res.json()) as { code: string }).code,
        );
      });
    });

    describe('who may', () => {
      it('lets a viewer read but not deploy or run, and hides functions from non-members', async () => {
        const fn = await deploy(HELLO);
        const clusterId = t.server.devAccount!.clusterId;
        const viewer = await memberAs(t, dev, clusterId, 'viewer');
        expect((await asUser(t, viewer, 'GET', `/api/functions/${fn._id}`)).status).toBe(200);
        expect((await asUser(t, viewer, 'POST', `/api/functions/${fn._id}/invoke`)).status).toBe(403);
        expect((await asUser(t, viewer, 'PUT', `/api/functions/${fn._id}`, { code: HELLO })).status).toBe(
          403,
        );
        const stranger = await signUp(t);
        expect((await asUser(t, stranger, 'GET', `/api/functions/${fn._id}`)).status).toBe(404);
        expect((await asUser(t, stranger, 'POST', `/api/functions/${fn._id}/invoke`)).status).toBe(404);
      });

      it('runs by name with a key holding function:invoke, and refuses a key without it', async () => {
        const fn = await deploy(HELLO);
        const allowed = await t.addKey({ scopes: ['function:invoke'] });
        const ok = await t.call('POST', `/api/v1/functions/${fn.name}/invoke`, {
          key: allowed.apiKey,
          body: { a: 1 },
        });
        expect(ok.status, await ok.clone().text()).toBe(200);
        expect(await ok.json()).toMatchObject({ result: { echo: { a: 1 } } });
        const denied = await t.addKey({ scopes: ['data:read'] });
        const res = await t.call('POST', `/api/v1/functions/${fn.name}/invoke`, {
          key: denied.apiKey,
          body: {},
        });
        expect(res.status).toBe(403);
        const unknown = await t.call('POST', '/api/v1/functions/no-such-function/invoke', {
          key: allowed.apiKey,
        });
        expect(unknown.status).toBe(404);
      });
    });
  },
  // Room for the 1 MiB code case to reach the schema's own 400 rather than the body limit's 413.
  { config: { bodyLimit: 4 * 1024 * 1024 } },
);
