import { describe, expect, it, vi } from 'vitest';
import { lazy } from '../src/lazy.js';
import { asUser, userOn } from './cluster-helpers.js';
import { availableEngines, bearer, forEachEngine, signUp } from './helpers.js';

describe('lazy', () => {
  it('loads once, on the first call, and hands every caller the same module', async () => {
    let loads = 0;
    const load = lazy(async () => {
      loads++;
      return { loaded: loads };
    });
    expect(loads).toBe(0);
    const [a, b] = await Promise.all([load(), load()]);
    expect(loads).toBe(1);
    expect(a).toBe(b);
    expect(await load()).toBe(a);
    expect(loads).toBe(1);
  });
});

// The libraries loaded on first use (the SQL parser, the common-password list, jose for session tokens) serve
// their first requests on a fresh server of each engine, also when several arrive at once.
forEachEngine((server) => {
  it('answers concurrent first SQL statements', async () => {
    const t = server();
    expect((await t.call('POST', '/api/v1/data/lazy', { body: { n: 1 } })).status).toBe(201);
    const answers = await Promise.all(
      [1, 2, 3].map((n) =>
        t.call('POST', '/api/v1/data/sql', { body: { sql: 'SELECT * FROM lazy WHERE n >= ?', params: [n] } }),
      ),
    );
    const bodies = await Promise.all(answers.map((res) => res.json()));
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200]);
    expect(bodies.map((body) => body.data.length)).toEqual([1, 0, 0]);
  });

  it('loads the JSON Schema validator with the first validators, set at once, and checks writes with them', async () => {
    const t = server();
    const user = await signUp(t);
    const as = { key: null, headers: bearer(user.token) };
    const names = ['lazy_a', 'lazy_b', 'lazy_c'];
    const puts = await Promise.all(
      names.map((c) =>
        t.call('PUT', `/api/schema/collections/${c}/validator`, {
          ...as,
          body: { schema: { type: 'object', required: ['n'] } },
        }),
      ),
    );
    expect(puts.map((res) => res.status)).toEqual([200, 200, 200]);
    const writes = await Promise.all(
      names.map((c) => t.call('POST', `/api/v1/data/${c}`, { ...as, body: { m: 1 } })),
    );
    expect(writes.map((res) => res.status)).toEqual([400, 400, 400]);
  });

  it('refuses common passwords and signs sessions from the first sign-ups on', async () => {
    const t = server();
    const refused = await Promise.all(
      ['password123', 'IloveYou12'].map((password) =>
        t.call('POST', '/api/auth/signup', {
          key: null,
          body: { email: `lazy-${password}@example.com`, password, name: 'Lazy' },
        }),
      ),
    );
    expect(refused.map((res) => res.status)).toEqual([400, 400]);
    const user = await signUp(t);
    const me = await t.call('GET', '/api/auth/me', { key: null, headers: bearer(user.token) });
    expect(me.status).toBe(200);
    expect((await me.json()).user).toEqual(user.user);
  });
});

describe('the API explorer, built on its first request', () => {
  forEachEngine((server) => {
    it('serves its page, files and document through the server, and 404 for what it lacks', async () => {
      const t = server();
      const [page, css, json] = await Promise.all([
        t.call('GET', '/api-docs', { key: null }),
        t.call('GET', '/api-docs/static/swagger-ui.css', { key: null }),
        t.call('GET', '/api-docs/json', { key: null }),
      ]);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('x-request-id')).toBeTruthy();
      expect(css.status).toBe(200);
      expect(css.headers.get('content-type')).toMatch(/^text\/css/);
      expect(json.status).toBe(200);
      expect((await json.json()).servers).toEqual([{ url: t.url, description: 'This server' }]);
      const redirect = await fetch(`${t.url}/api-docs/static/index.html`, { redirect: 'manual' });
      expect(redirect.status).toBe(302);
      expect(redirect.headers.get('location')).toBe('/api-docs/');
      const missing = await t.call('GET', '/api-docs/nothing', { key: null });
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ code: 'not_found' });
    });
  });
});

// The cron parser (croner) is loaded once some trigger has a schedule. Each case starts its server from a fresh
// module registry, so whether the parser is loaded is this server's own doing.
describe.each(availableEngines())('the cron parser on %s', (engine) => {
  it('stays unloaded through functions and document triggers, and loads with the first schedule', async () => {
    vi.resetModules();
    const { startTestServer } = await import('./helpers.js');
    const cron = await import('../src/triggers/cron.js');
    const t = await startTestServer({ engine });
    try {
      const owner = await userOn(t, 'team');
      const fn = await asUser(t, owner, 'POST', '/api/functions', {
        name: 'lazy',
        code: 'export default () => 1;',
      });
      expect(fn.status).toBe(201);
      const target = { function: ((await fn.json()) as { _id: string })._id };
      const source = { type: 'document', events: ['document.created'] };
      expect((await asUser(t, owner, 'POST', '/api/triggers', { name: 'doc', source, target })).status).toBe(
        201,
      );
      await t.server.app.triggerScheduler.poll();
      expect(cron.cronLoaded()).toBe(false);
      const schedule = { type: 'schedule', cron: '0 0 1 1 *' };
      const res = await asUser(t, owner, 'POST', '/api/triggers', { name: 'tick', source: schedule, target });
      expect(res.status).toBe(201);
      expect(cron.cronLoaded()).toBe(true);
    } finally {
      await t.stop();
    }
  }, 60_000);
});
