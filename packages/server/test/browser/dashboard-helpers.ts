import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestServer } from '../helpers.js';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** A page that records every console error and uncaught exception, for the "no console errors" check. */
export async function watchedPage(browser: Browser, options: Parameters<Browser['newContext']>[0] = {}) {
  const context: BrowserContext = await browser.newContext(options);
  const page: Page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    // The browser reports every 4xx answer to a fetch; an API refusal the app shows as a message is not a defect
    // of the page (the tests provoke some), while a missing file or page is.
    const source = message.location().url;
    if (
      message.text().startsWith('Failed to load resource') &&
      new URL(source, page.url()).pathname.startsWith('/api/')
    )
      return;
    errors.push(`${page.url()} (${source}): ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
  return { context, page, errors };
}

/** Signs in through the server's /login page as the development account and waits for the dashboard. */
export async function signInThroughLogin(page: Page, t: TestServer, landing: RegExp) {
  const dev = t.server.devAccount!;
  await page.locator('#signin-email').fill(dev.email);
  await page.locator('#signin-password').fill(dev.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(landing);
}

/** A violation axe-core found, cut to what a failure message needs. */
export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core in the page (evaluated through the DevTools protocol, so the page's script policy does not apply)
 * and returns the serious and critical violations.
 */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (
      globalThis as unknown as { axe: { run(context: Document): Promise<{ violations: unknown[] }> } }
    ).axe;
    const result = await axe.run(document);
    return (
      result.violations as {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: string[] }[];
      }[]
    )
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        targets: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
      }));
  });
}

/** Waits until the page's main heading says `title` and nothing on it is still loading (in a test or a hook). */
export async function pageReady(page: Page, title: string) {
  const exact = new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  await page.locator('main h1').filter({ hasText: exact }).waitFor();
  await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
}

/** A watched page signed in to the dashboard as the development account, on the overview. */
export async function signedInDashboard(browser: Browser, t: TestServer) {
  const watched = await watchedPage(browser);
  await watched.page.goto(`${t.url}/dashboard`);
  await watched.page.waitForURL(/\/login\?/);
  await signInThroughLogin(watched.page, t, /\/dashboard$/);
  await pageReady(watched.page, 'Overview');
  const token = await watched.page.evaluate(() => sessionStorage.getItem('dataplatform.session'));
  return { ...watched, token: token! };
}

/** The text of the page's polite status line (what the last action reported). */
export const statusText = (page: Page) => page.getByRole('status').first().textContent();
