import { gunzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../helpers.js';
import { type Receiver, startReceiver } from '../webhooks/receiver.js';
import { hasChromium, launchChromium } from './chromium.js';
import { pageReady, seriousViolations, signedInDashboard, statusText } from './dashboard-helpers.js';

let t: TestServer;
let browser: Browser;
let page: Page;
let errors: string[];
let token: string;
let receiver: Receiver;

beforeAll(async () => {
  t = await startTestServer();
  receiver = await startReceiver();
  expect((await t.call('POST', '/api/v1/data/orders', { body: { item: 'pen', qty: 1 } })).status).toBe(201);
  expect((await t.call('GET', '/api/v1/data/orders/missing')).status).toBe(404);
  if (hasChromium) {
    browser = await launchChromium();
    ({ page, errors, token } = await signedInDashboard(browser, t));
  }
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await t?.stop();
});

const session = (path: string, init: RequestInit = {}) =>
  fetch(`${t.url}${path}`, { ...init, headers: { ...bearer(token), 'content-type': 'application/json' } });

const table = (caption: string) =>
  page.locator('table', { has: page.locator('caption', { hasText: caption }) });

describe.skipIf(!hasChromium && !process.env.CI)('the dashboard areas in Chromium', () => {
  it('subscribes a webhook, shows its deliveries and attempts, re-sends, tests, rotates and deletes it', async () => {
    await page.goto(`${t.url}/dashboard/webhooks`);
    await pageReady(page, 'Webhooks');
    await page.getByLabel('Receiver address').fill(`${receiver.url}/hook`);
    await page.getByLabel('Collection (optional)').fill('orders');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await expect.poll(() => page.getByTestId('secret').textContent()).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'I have stored it' }).click();

    expect((await t.call('POST', '/api/v1/data/orders', { body: { item: 'ink', qty: 2 } })).status).toBe(201);
    await receiver.waitFor(1);
    await page.getByRole('button', { name: `Deliveries to ${receiver.url}/hook` }).click();
    const deliveries = table(`Deliveries to ${receiver.url}/hook`);
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Refresh deliveries' }).click();
        return deliveries.locator('tbody').textContent();
      })
      .toContain('succeeded');
    const deliveryId = (await deliveries
      .getByRole('button', { name: /^Attempts of delivery / })
      .getAttribute('aria-label'))!
      .split(' ')
      .pop()!;
    await page.getByRole('button', { name: `Attempts of delivery ${deliveryId}` }).click();
    const attempts = table(`Attempts of delivery ${deliveryId}`).locator('tbody tr');
    await expect.poll(() => attempts.first().textContent()).toMatch(/^1.*succeeded200/);
    expect(await attempts.count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: `Resend delivery ${deliveryId}` }).click();
    await expect.poll(() => statusText(page)).toBe(`Sent delivery ${deliveryId} again.`);
    const [first, again] = await receiver.waitFor(2);
    expect(again!.headers['x-webhook-id']).toBe(first!.headers['x-webhook-id']);

    await page.getByRole('button', { name: `Send test event to ${receiver.url}/hook` }).click();
    await expect.poll(() => statusText(page)).toMatch(/^Sent test event evt_/);
    expect(JSON.parse((await receiver.waitFor(3))[2]!.body)).toMatchObject({ collection: 'orders' });

    await page.getByRole('button', { name: `Rotate secret of ${receiver.url}/hook` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate secret' }).click();
    await expect.poll(() => page.getByTestId('secret').textContent()).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'I have stored it' }).click();

    await page.getByRole('button', { name: `Delete the webhook to ${receiver.url}/hook` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete webhook' }).click();
    await expect.poll(() => statusText(page)).toBe(`Deleted the webhook to ${receiver.url}/hook.`);
    expect((await (await t.call('GET', '/api/v1/data/webhooks')).json()).data).toEqual([]);
  }, 90_000);

  it('shows unread notifications as a badge, and marks them read', async () => {
    const userId = t.server.devAccount!.userId;
    for (const title of ['Backup one failed', 'Backup two failed'])
      await t.server.app.notifier.raise(userId, 'backup_failed', { title, body: `${title}: disk full` });
    await page.goto(`${t.url}/dashboard/notifications`);
    await pageReady(page, 'Notifications');
    // The development account's first sign-in raised "New sign-in" too.
    const badge = page.getByTestId('unread-badge');
    await expect.poll(() => badge.textContent()).toBe('3 unread');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Mark read: Backup one failed' }).click();
    await expect.poll(() => badge.textContent()).toBe('2 unread');
    await page.getByRole('button', { name: 'Mark all read' }).click();
    await expect.poll(() => badge.count()).toBe(0);
    expect((await (await session('/api/notifications?unread=true')).json()).unread).toBe(0);

    await page.getByRole('button', { name: 'Delete notification Backup two failed' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete notification' }).click();
    await expect.poll(() => statusText(page)).toBe('Deleted Backup two failed.');
    const byMail = page.getByLabel('A backup failed: by e-mail');
    const before = await byMail.isChecked();
    await byMail.setChecked(!before);
    const preferencesStatus = page.getByRole('region', { name: 'Preferences' }).getByRole('status');
    await expect.poll(() => preferencesStatus.textContent()).toBe('Preferences saved.');
    const preferences = await (await session('/api/notifications/preferences')).json();
    expect(preferences.backup_failed.email).toBe(!before);
  }, 60_000);

  it('updates the unread badge from the notification stream, without a navigation', async () => {
    const userId = t.server.devAccount!.userId;
    const streamOpen = page.waitForResponse((response) =>
      response.url().endsWith('/api/notifications/stream'),
    );
    await page.goto(`${t.url}/dashboard/settings`);
    await pageReady(page, 'Settings');
    expect((await streamOpen).status()).toBe(200);
    const badge = page.getByTestId('unread-badge');
    const before = Number((await session('/api/notifications?unread=true').then((r) => r.json())).unread);
    await t.server.app.notifier.raise(userId, 'backup_failed', {
      title: 'Backup three failed',
      body: 'disk full',
    });
    // Well within the 30 s periodic refresh, so only the stream can have told the page.
    await expect.poll(() => badge.textContent(), { timeout: 10_000 }).toBe(`${before + 1} unread`);
    // A second one, once the count the page read as the stream opened is surely in: only the stream tells it.
    await t.server.app.notifier.raise(userId, 'backup_failed', {
      title: 'Backup four failed',
      body: 'disk full',
    });
    await expect.poll(() => badge.textContent(), { timeout: 10_000 }).toBe(`${before + 2} unread`);
    expect(await page.locator('main h1').textContent()).toBe('Settings');
    expect(errors).toEqual([]);
  }, 60_000);

  it('draws the metrics as charts with their numbers in a table', async () => {
    await page.goto(`${t.url}/dashboard/metrics`);
    await pageReady(page, 'Metrics');
    await expect.poll(() => page.locator('.chart canvas').count()).toBe(3);
    await page.getByText('The numbers as a table').click();
    const rows = table('Metrics per hour').locator('tbody tr');
    expect(await rows.count()).toBeGreaterThan(0);
    expect(await seriousViolations(page)).toEqual([]);
  }, 60_000);

  it('filters the request log and shows the account activity', async () => {
    await page.goto(`${t.url}/dashboard/logs`);
    await pageReady(page, 'Logs');
    await page.getByLabel('Status').fill('404');
    await page.getByRole('button', { name: 'Filter requests' }).click();
    const requests = table('Requests, newest first');
    const rows = requests.locator('tbody tr');
    await expect
      .poll(async () => ({ rows: await rows.count(), first: await rows.first().textContent() }))
      .toEqual({ rows: 1, first: expect.stringMatching(/GET \/api\/v1\/data\/orders\/missing404/) });
    await expect.poll(() => table('Account activity').locator('tbody').textContent()).toContain('signin');
  }, 60_000);

  it('saves settings as a merge patch', async () => {
    await page.goto(`${t.url}/dashboard/settings`);
    await pageReady(page, 'Settings');
    await page.getByLabel('Time zone').fill('Europe/Oslo');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => statusText(page)).toBe('Settings saved.');
    expect((await (await session('/api/settings')).json()).account.timezone).toBe('Europe/Oslo');
  }, 60_000);

  it('edits the IP allowlist, refusing a list without its own address', async () => {
    const allowlist = async () => (await session('/api/settings/ip-allowlist')).json();
    const { clientIp } = await allowlist();
    await page.goto(`${t.url}/dashboard/settings`);
    await pageReady(page, 'Settings');
    const entries = page.getByLabel('Allowed addresses and ranges, one a line');
    await entries.fill('203.0.113.0/24');
    await page.getByRole('button', { name: 'Save allowlist' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain(clientIp);
    expect((await allowlist()).entries).toEqual([]);

    await page.getByRole('button', { name: 'Add my address' }).click();
    expect(await entries.inputValue()).toBe(`203.0.113.0/24\n${clientIp}`);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save allowlist' }).click();
    await expect.poll(() => statusText(page)).toBe('Saved the allowlist: 2 entries.');
    expect((await allowlist()).entries).toEqual(['203.0.113.0/24', clientIp]);

    await entries.fill('');
    await page.getByRole('button', { name: 'Save allowlist' }).click();
    await expect
      .poll(() => statusText(page))
      .toBe('Lifted the allowlist: every address may use the account.');
    expect((await allowlist()).entries).toEqual([]);
    expect(errors).toEqual([]);
  }, 60_000);

  it('backs up the cluster, downloads the archive, restores it after confirming, and deletes it', async () => {
    await page.goto(`${t.url}/dashboard/backups`);
    await pageReady(page, 'Backups');
    await page.getByRole('button', { name: 'Back up now' }).click();
    await expect.poll(() => statusText(page)).toMatch(/^Backup \S+ started\.$/);
    const backupId = (await statusText(page))!.split(' ')[1]!;
    const backups = table('Backups of this cluster');
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Refresh backups' }).click();
        return backups.locator('tbody').textContent();
      })
      .toContain('succeeded');
    expect(await seriousViolations(page)).toEqual([]);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: `Download backup ${backupId}` }).click(),
    ]);
    const chunks: Buffer[] = [];
    for await (const chunk of (await download.createReadStream())!) chunks.push(chunk as Buffer);
    expect(gunzipSync(Buffer.concat(chunks)).toString()).toContain('"orders"');

    expect((await t.call('POST', '/api/v1/data/orders', { body: { item: 'after the backup' } })).status).toBe(
      201,
    );
    await page.getByRole('button', { name: `Restore backup ${backupId}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Restore backup' }).click();
    await expect.poll(() => statusText(page)).toMatch(/^Restore started as job \S+\.$/);
    await expect
      .poll(async () => (await (await t.call('GET', '/api/v1/data/orders')).json()).total, {
        timeout: 15_000,
      })
      .toBe(2);

    await page.getByRole('button', { name: `Delete backup ${backupId}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete backup' }).click();
    await expect.poll(() => statusText(page)).toBe(`Deleted backup ${backupId}.`);
  }, 90_000);

  it('logged no console errors and no uncaught exceptions', () => {
    expect(errors).toEqual([]);
  });
});
