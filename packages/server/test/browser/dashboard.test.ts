import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../helpers.js';
import { hasChromium, launchChromium } from './chromium.js';
import { pageReady, seriousViolations, signInThroughLogin, watchedPage } from './dashboard-helpers.js';

let t: TestServer;
let browser: Browser;
let page: Page;
let errors: string[];

/** Every area's address and the heading its page shows. */
const PAGES: [string, string][] = [
  ['', 'Overview'],
  ['/documents/orders', 'Documents'],
  ['/schema', 'Schema and indexes'],
  ['/keys', 'API keys'],
  ['/webhooks', 'Webhooks'],
  ['/functions', 'Functions'],
  ['/triggers', 'Triggers'],
  ['/backups', 'Backups'],
  ['/metrics', 'Metrics'],
  ['/logs', 'Logs'],
  ['/notifications', 'Notifications'],
  ['/intelligence', 'Intelligence'],
  ['/clusters', 'Clusters and members'],
  ['/billing', 'Billing and usage'],
  ['/settings', 'Settings'],
];

/** 150 KB: the budget of compressed JavaScript for the first load of /dashboard (docs/dashboard.md). */
const FIRST_LOAD_BUDGET = 150 * 1024;

beforeAll(async () => {
  t = await startTestServer();
  const operations = Array.from({ length: 30 }, (_, n) => ({
    op: 'insert',
    collection: 'orders',
    data: { item: `pen-${String(n).padStart(2, '0')}`, qty: n },
  }));
  expect((await t.call('POST', '/api/v1/data/batch', { body: { operations } })).status).toBe(200);
  if (hasChromium) {
    browser = await launchChromium();
    ({ page, errors } = await watchedPage(browser));
  }
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

/** The pictures docs/dashboard.md shows: the main pages in light, two in dark, one on a phone. */
const SCREENSHOTS = new Set([
  'overview-light',
  'documents-light',
  'keys-light',
  'webhooks-light',
  'metrics-light',
  'notifications-light',
  'documents-dark',
  'metrics-dark',
  'documents-phone',
]);

/**
 * With DASHBOARD_SCREENSHOTS=1 the run saves what it shows into docs/dashboard/ (docs/dashboard.md shows them);
 * otherwise it writes nothing.
 */
async function screenshot(shown: Page, name: string) {
  if (!process.env.DASHBOARD_SCREENSHOTS || !SCREENSHOTS.has(name)) return;
  const dir = fileURLToPath(new URL('../../../../docs/dashboard/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  await shown.screenshot({ path: `${dir}${name}.png` });
}

const api = (path: string, key: string) => fetch(`${t.url}${path}`, { headers: { 'x-api-key': key } });

describe.skipIf(!hasChromium && !process.env.CI)('the dashboard in Chromium', () => {
  it('sends a visitor to sign in and back to the page they asked for', async () => {
    await page.goto(`${t.url}/dashboard/documents/orders`);
    await page.waitForURL(`${t.url}/login?redirect_to=%2Fdashboard`);
    // The sign-in page takes the dashboard's look, and passes the same check.
    expect(await page.locator('.brand').textContent()).toBe('dataplatform');
    expect(await seriousViolations(page)).toEqual([]);
    await signInThroughLogin(page, t, /\/dashboard\/documents\/orders$/);
    expect(page.url()).not.toContain('token');
    await pageReady(page, 'Documents');
    await expect.poll(() => page.locator('table caption').first().textContent()).toBe('Documents of orders');
  }, 60_000);

  it('first loads at most 150 KB of compressed JavaScript, with hashed files cached for a year', async () => {
    const token = await page.evaluate(() => sessionStorage.getItem('dataplatform.session'));
    const fresh = await watchedPage(browser);
    await fresh.context.addInitScript(
      (value) => sessionStorage.setItem('dataplatform.session', value),
      token!,
    );
    const scripts: { url: string; bytes: number; cache: string | null; encoding: string | null }[] = [];
    fresh.page.on('requestfinished', async (request) => {
      if (request.resourceType() !== 'script') return;
      const response = await request.response();
      scripts.push({
        url: request.url(),
        bytes: (await request.sizes()).responseBodySize,
        cache: (await response?.headerValue('cache-control')) ?? null,
        encoding: (await response?.headerValue('content-encoding')) ?? null,
      });
    });
    await fresh.page.goto(`${t.url}/dashboard`);
    await pageReady(fresh.page, 'Overview');
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      expect(script.url).toMatch(/\/dashboard\/assets\/[^/]+-[A-Za-z0-9_-]{8}\.js$/);
      expect(script).toMatchObject({ cache: 'public, max-age=31536000, immutable', encoding: 'gzip' });
    }
    const total = scripts.reduce((sum, script) => sum + script.bytes, 0);
    expect(total).toBeLessThanOrEqual(FIRST_LOAD_BUDGET);
    expect(fresh.errors).toEqual([]);
    await fresh.context.close();
  }, 60_000);

  it('browses a collection: pages, sorts, creates, edits and deletes documents, and runs SQL', async () => {
    await page.goto(`${t.url}/dashboard/documents/orders`);
    await pageReady(page, 'Documents');
    const rows = page.locator('table').first().locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(25);
    const position = page.locator('.pager-position').first();
    expect(await position.textContent()).toBe('1–25 of 30');
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => position.textContent()).toBe('26–30 of 30');
    expect(await rows.count()).toBe(5);

    await page.getByRole('button', { name: 'qty', exact: true }).click();
    await expect.poll(() => page.locator('th[aria-sort="ascending"]').textContent()).toContain('qty');
    await expect.poll(() => position.textContent()).toBe('1–25 of 30');
    await page.getByRole('button', { name: 'qty', exact: true }).click();
    await expect.poll(() => page.locator('th[aria-sort="descending"]').textContent()).toContain('qty');
    await expect.poll(() => rows.first().textContent()).toContain('pen-29');

    await page.getByRole('button', { name: 'New document' }).click();
    await page.getByLabel('Document (JSON)').fill('{ "item": "brush", "qty": 999 }');
    await page.getByRole('button', { name: 'Create document' }).click();
    await expect
      .poll(() => page.getByRole('status').first().textContent())
      .toMatch(/^Created document \S+\.$/);
    await expect.poll(() => rows.first().textContent()).toContain('brush');
    const created = await (await api('/api/v1/data/orders?sort=-qty&limit=1', t.devKey)).json();
    const id: string = created.data[0]._id;
    expect(created.data[0]).toMatchObject({ item: 'brush', qty: 999 });

    await page.getByRole('button', { name: `Edit document ${id}` }).click();
    const editor = page.getByLabel('Document (JSON)');
    expect(await seriousViolations(page)).toEqual([]);
    expect(JSON.parse(await editor.inputValue())).toEqual({ item: 'brush', qty: 999 });
    await editor.fill('{ "item": "brush", "qty": 1000, "colour": "red" }');
    await page.getByRole('button', { name: 'Save document' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe(`Saved document ${id}.`);
    const saved = await (await api(`/api/v1/data/orders/${id}`, t.devKey)).json();
    expect(saved).toMatchObject({ item: 'brush', qty: 1000, colour: 'red' });

    await page.getByRole('button', { name: `Delete document ${id}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete document' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe(`Deleted document ${id}.`);
    expect((await api(`/api/v1/data/orders/${id}`, t.devKey)).status).toBe(404);

    await page.getByLabel('Statement').fill('SELECT item, qty FROM orders WHERE qty >= 27 ORDER BY qty DESC');
    await page.getByRole('button', { name: 'Run query' }).click();
    const results = page.locator('table', { has: page.locator('caption', { hasText: 'Query results' }) });
    await expect.poll(() => results.locator('tbody tr').count()).toBe(3);
    expect(await results.locator('tbody tr').first().textContent()).toBe('pen-2929');
    await page.getByLabel('Statement').fill('DELETE FROM orders');
    await page.getByRole('button', { name: 'Run query' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('invalid_sql');
  }, 90_000);

  it('asks for a page past the middle from the far end, and shows the same documents as paging forward', async () => {
    // 53 documents, 25 a page: pages start at 0, 25 and 50. Quantities repeat, so sorts by qty have ties, which
    // the list route breaks by _id.
    const operations = Array.from({ length: 53 }, (_, n) => ({
      op: 'insert',
      collection: 'ledger',
      data: { item: `entry-${String(n).padStart(2, '0')}`, qty: n % 4 },
    }));
    expect((await t.call('POST', '/api/v1/data/batch', { body: { operations } })).status).toBe(200);
    const ids = page.locator('table').first().locator('tbody tr td:first-child code');
    /** The _ids of the page after `skip` as the list route gives them when paging forward. */
    const forward = async (skip: number, sort: string | undefined) => {
      const query = new URLSearchParams({ skip: String(skip), limit: '25', ...(sort ? { sort } : {}) });
      const body = await (await api(`/api/v1/data/ledger?${query}`, t.devKey)).json();
      return (body.data as { _id: string }[]).map((document) => document._id);
    };
    /** Clicks `button` and returns the query the page sent to the list route. */
    const askedWith = async (button: string) => {
      const asked = page.waitForRequest((request) => request.url().includes('/api/v1/data/ledger?'));
      await page.getByRole('button', { name: button }).click();
      return Object.fromEntries(new URL((await asked).url()).searchParams);
    };

    for (const [sort, reversed] of [
      [undefined, '-_id'],
      ['qty', '-qty'],
      ['-qty', 'qty'],
      ['qty,-item', '-qty,item'],
    ] as const) {
      await page.goto(`${t.url}/dashboard/documents/ledger?limit=25${sort ? `&sort=${sort}` : ''}`);
      await pageReady(page, 'Documents');
      await expect.poll(() => ids.allTextContents()).toEqual(await forward(0, sort));
      // The last page is the first 3 documents of the reversed order; the one before it skips those 3.
      expect(await askedWith('Last page')).toMatchObject({ skip: '0', limit: '3', sort: reversed });
      await expect.poll(() => ids.allTextContents()).toEqual(await forward(50, sort));
      expect(await page.locator('.pager-position').first().textContent()).toBe('51–53 of 53');
      expect(await askedWith('Previous page')).toMatchObject({ skip: '3', limit: '25', sort: reversed });
      await expect.poll(() => ids.allTextContents()).toEqual(await forward(25, sort));
      // A page before the middle is asked for as it is.
      const nearStart = await askedWith('Previous page');
      expect(nearStart).toMatchObject({ skip: '0', limit: '25' });
      expect(nearStart.sort).toBe(sort);
      await expect.poll(() => ids.allTextContents()).toEqual(await forward(0, sort));
    }

    // A document added since the size was read moves the window from the end: the page is asked for again
    // from the start, and still shows the right documents.
    expect(await askedWith('Next page')).toMatchObject({ skip: '3', sort: '-qty,item' });
    await expect.poll(() => ids.allTextContents()).toEqual(await forward(25, 'qty,-item'));
    const added = await t.call('POST', '/api/v1/data/ledger', { body: { item: 'entry-53', qty: 0 } });
    expect(added.status).toBe(201);
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => page.locator('.pager-position').first().textContent()).toBe('51–54 of 54');
    await expect.poll(() => ids.allTextContents()).toEqual(await forward(50, 'qty,-item'));
    expect(errors).toEqual([]);
  }, 90_000);

  it('creates a key that shows its secret once, and pauses, resumes, rotates, shows usage and deletes it', async () => {
    await page.goto(`${t.url}/dashboard/keys`);
    await pageReady(page, 'API keys');
    await page.getByLabel('Name').fill('reporting');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secretBox = page.getByTestId('secret');
    await expect.poll(() => secretBox.textContent()).toMatch(/^svc_/);
    const secret = (await secretBox.textContent())!;
    expect((await api('/api/v1/data/orders', secret)).status).toBe(200);
    expect((await api('/api/v1/data/orders', secret + 'x')).status).toBe(401);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    expect(await page.getByTestId('secret').count()).toBe(0);
    await page.reload();
    await pageReady(page, 'API keys');
    expect(await page.content()).not.toContain(secret);

    await page.getByRole('button', { name: 'Pause key reporting' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Paused reporting.');
    expect((await (await api('/api/v1/data/orders', secret)).json()).code).toBe('key_paused');
    await page.getByRole('button', { name: 'Resume key reporting' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Resumed reporting.');
    expect((await api('/api/v1/data/orders', secret)).status).toBe(200);

    // Usage is written in batches off the request's path: wait until the three requests are recorded.
    const token = await page.evaluate(() => sessionStorage.getItem('dataplatform.session'));
    const keys = await (await fetch(`${t.url}/api/keys`, { headers: bearer(token!) })).json();
    const keyId = keys.data.find((key: { name: string }) => key.name === 'reporting')._id;
    const recorded = async () =>
      (await (await fetch(`${t.url}/api/keys/${keyId}/usage`, { headers: bearer(token!) })).json()).total;
    await expect.poll(recorded, { timeout: 10_000 }).toBe(3);
    await page.getByRole('button', { name: 'Usage of key reporting' }).click();
    const usage = page.locator('table', {
      has: page.locator('caption', { hasText: 'Requests made with reporting' }),
    });
    await expect.poll(() => usage.locator('tbody tr').count()).toBe(3);
    expect(await usage.locator('tbody').textContent()).toContain('GET /api/v1/data/orders');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('Outcome').selectOption('denied');
    await expect.poll(() => usage.locator('tbody tr').first().textContent()).toContain('denied');

    await page.getByRole('button', { name: 'Rotate key reporting' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate key' }).click();
    await expect.poll(() => page.getByTestId('secret').textContent()).toMatch(/^svc_/);
    const rotated = (await page.getByTestId('secret').textContent())!;
    expect(rotated).not.toBe(secret);
    expect((await api('/api/v1/data/orders', secret)).status).toBe(401);
    expect((await api('/api/v1/data/orders', rotated)).status).toBe(200);

    await page.getByRole('button', { name: 'Delete key reporting' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete key' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Deleted reporting.');
    expect((await api('/api/v1/data/orders', rotated)).status).toBe(401);
  }, 90_000);

  it.each(['light', 'dark'] as const)(
    'shows every area with no serious or critical accessibility violations (%s)',
    async (scheme) => {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [path, title] of PAGES) {
        await page.goto(`${t.url}/dashboard${path}`);
        await pageReady(page, title);
        expect({ path, violations: await seriousViolations(page) }).toEqual({ path, violations: [] });
        await screenshot(page, `${path.split('/')[1] || 'overview'}-${scheme}`);
      }
    },
    180_000,
  );

  it('fits a phone: the navigation folds behind the menu button, and nothing scrolls sideways', async () => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`${t.url}/dashboard/documents/orders`);
    await pageReady(page, 'Documents');
    const menu = page.getByRole('button', { name: 'Menu' });
    expect(await page.getByRole('navigation', { name: 'Areas' }).isVisible()).toBe(false);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(page, 'documents-phone');
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'API keys' }).click();
    await pageReady(page, 'API keys');
    expect(await page.getByRole('navigation', { name: 'Areas' }).isVisible()).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
  }, 60_000);

  it('keeps the theme the user picks over the system one', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`${t.url}/dashboard`);
    await pageReady(page, 'Overview');
    await page.getByRole('button', { name: 'Use the dark theme' }).click();
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(await background()).toBe('rgb(15, 17, 21)');
    await page.reload();
    await pageReady(page, 'Overview');
    expect(await background()).toBe('rgb(15, 17, 21)');
    await page.getByRole('button', { name: 'Use the light theme' }).click();
    expect(await background()).toBe('rgb(246, 247, 249)');
  }, 60_000);

  it('logged no console errors and no uncaught exceptions on any page', () => {
    expect(errors).toEqual([]);
  });
});
