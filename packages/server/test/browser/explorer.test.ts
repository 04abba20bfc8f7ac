import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers.js';
import { hasChromium, launchChromium } from './chromium.js';

let t: TestServer;
let browser: Browser;

beforeAll(async () => {
  t = await startTestServer();
  await t.call('POST', '/api/v1/data/orders', { body: { total: 7 } });
  if (hasChromium) browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await t.stop();
});

describe.skipIf(!hasChromium && !process.env.CI)('the API explorer at /api-docs', () => {
  it('authorizes with an API key and runs a list call that answers 200', async () => {
    const page = await browser.newPage();
    // Budgets, not measures: Swagger UI renders the whole document on the page's one thread, which a loaded
    // machine (CI runs suites in parallel on two cores) slows several times over.
    page.setDefaultTimeout(30_000);
    await page.goto(`${t.url}/api-docs`);
    await page.locator('.btn.authorize').click();
    const apiKeyForm = page.locator('.auth-container').filter({ hasText: 'ApiKeyAuth' });
    await apiKeyForm.locator('input').fill(t.devKey);
    await apiKeyForm.locator('button.authorize').click();
    await page.locator('.btn-done').first().click();

    const operation = page
      .locator('.opblock-get')
      .filter({ has: page.locator('[data-path="/api/v1/data/{collection}"]') });
    await operation.locator('.opblock-summary').click();
    // The explorer opens operations in "try it out" mode (tryItOutEnabled), so the parameters are editable at once.
    await operation.locator('input[placeholder="collection"]').fill('orders');
    await operation.locator('.execute').click();

    const status = operation.locator('.live-responses-table .response .response-col_status');
    await expect.poll(() => status.first().textContent(), { timeout: 15_000 }).toContain('200');
    const body = await operation
      .locator('.live-responses-table .response-col_description .microlight')
      .first()
      .textContent();
    expect(JSON.parse(body ?? '{}')).toMatchObject({ total: 1, data: [{ total: 7 }] });
    await page.close();
  }, 120_000);

  it("shows the product's name and mark, and no address bar", async () => {
    const page = await browser.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(`${t.url}/api-docs`);
    await page.locator('.opblock').first().waitFor();
    expect(await page.title()).toBe('dataplatform API');
    const logo = page.locator('.topbar a img').first();
    const logoSource = await logo.getAttribute('src');
    const served = await (await fetch(new URL(logoSource!, page.url()))).text();
    expect(served).toContain('dataplatform');
    expect(served).toContain('#2563eb');
    expect(await page.locator('.download-url-wrapper').isVisible()).toBe(false);
    await page.close();
  }, 120_000);

  it('serves the committed OpenAPI document with this server as its address', async () => {
    const res = await fetch(`${t.url}/api/openapi.json`);
    const document = await res.json();
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.0.0');
    expect(document.servers).toEqual([{ url: t.url, description: 'This server' }]);
  });
});
