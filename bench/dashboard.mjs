/**
 * `pnpm bench:dashboard`: the dashboard's document browser over a collection of 1,000,000 documents (SQLite), in
 * headless Chromium. The reference server is started and seeded as the scale benchmark does; the browser signs in
 * through /login as the development account, opens the collection 50 to a page and pages through it. Each page's
 * time, from asking for it to showing it, is the `documents-page` measure the app puts on the page's performance
 * timeline (packages/dashboard/src/pages/documents/collection-view.tsx), read back after every step. The first
 * page of each row is opened by its address and not counted.
 * Writes the section "Dashboard document browser" of docs/benchmarks.md.
 * Options: --documents 1000000 --pages 20 --skip-build --out docs/benchmarks.md
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { machine, median, ms } from './lib/report.mjs';
import { prepare } from './lib/scale-target.mjs';
import { buildPackages, writeSection } from './lib/script.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const { values: opts } = parseArgs({
  options: {
    documents: { type: 'string', default: '1000000' },
    pages: { type: 'string', default: '20' },
    'skip-build': { type: 'boolean', default: false },
    out: { type: 'string', default: join(root, 'docs', 'benchmarks.md') },
  },
});
const documents = Number(opts.documents);
const pages = Number(opts.pages);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(CHROMIUM))
  throw new Error(`bench:dashboard needs Chromium at ${CHROMIUM} (set CHROMIUM_PATH)`);
if (!opts['skip-build'])
  buildPackages(root, [
    '@dataplatform/contract',
    '@dataplatform/webhooks',
    '@dataplatform/sdk',
    '@dataplatform/dashboard',
    '@dataplatform/server',
  ]);

const work = mkdtempSync(join(tmpdir(), 'dataplatform-bench-dashboard-'));
const target = await prepare('sqlite', documents, { work, log: console.log });
const { url } = target.server.info;
const dev = JSON.parse(readFileSync(join(target.dataDir, 'dev-credentials.json'), 'utf8'));
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});

/** The `documents-page` measures taken so far, in milliseconds. */
const measures = (page) =>
  page.evaluate(() => performance.getEntriesByName('documents-page').map((entry) => entry.duration));

/** Waits for the pager to say `first–…`, i.e. for the page that starts after `skip` documents to be shown. */
const shown = (page, skip) =>
  page
    .locator('.pager-position')
    .filter({ hasText: new RegExp(`^${(skip + 1).toLocaleString('en-US')}–`) })
    .waitFor();

/** Waits until the page has taken `count` measures: the app measures just after it shows a page. */
async function measured(page, count) {
  for (;;) {
    const taken = await measures(page);
    if (taken.length >= count) return taken;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Opens `query` of the collection, then clicks `direction` page after page; the times of those clicks. */
async function browse(page, query, start, direction) {
  await page.goto(`${url}/dashboard/documents/orders?${query}`);
  await shown(page, start);
  await measured(page, 1);
  let skip = start;
  for (let i = 0; i < pages; i++) {
    skip += direction === 'Next page' ? 50 : -50;
    await page.getByRole('button', { name: direction }).click();
    await shown(page, skip);
    await measured(page, i + 2);
  }
  return (await measured(page, pages + 1)).slice(1);
}

const rows = [];
try {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  await page.goto(`${url}/dashboard`);
  await page.waitForURL(/\/login\?/);
  await page.locator('#signin-email').fill(dev.email);
  await page.locator('#signin-password').fill(dev.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/\/dashboard$/);
  const last = Math.floor((documents - 1) / 50) * 50;
  // The middle is the far point of the browser: past it, pages are asked for from the end (page-window.ts).
  const middle = Math.floor(documents / 2 / 50) * 50;
  const scenarios = [
    ['From the first page on, in stored order', 'limit=50', 0, 'Next page'],
    ['From the first page on, newest first', 'limit=50&sort=-_createdAt', 0, 'Next page'],
    ['Back from the last page, in stored order', `limit=50&skip=${last}`, last, 'Previous page'],
    [
      'Back from the last page, newest first',
      `limit=50&skip=${last}&sort=-_createdAt`,
      last,
      'Previous page',
    ],
    ['On from the middle, in stored order', `limit=50&skip=${middle}`, middle, 'Next page'],
  ];
  for (const [label, query, start, direction] of scenarios) {
    const times = await browse(page, query, start, direction);
    rows.push({ label, times });
    console.log(`${label}: median ${ms(median(times))} ms, slowest ${ms(Math.max(...times))} ms`);
  }
} finally {
  await browser.close();
  await target.server.stop();
  rmSync(work, { recursive: true, force: true });
}

const markdown = `## Dashboard document browser

Page to page in the dashboard's document browser over one collection of ${documents.toLocaleString('en-US')}
documents on SQLite, 50 to a page, in headless Chromium on the same machine as the server. A page's time runs
from the app asking the SDK for it to the table showing it (the \`documents-page\` measure on the page's timeline):
the request, the server's query, the answer's JSON and the drawing. ${pages} pages per row; each row starts at
its address, and that first page is not counted. A page past the middle is asked for from the end, in the
reversed order, so the middle is the farthest any page is from an end. Load average
${loadavg()[0].toFixed(2)} at the end. The goal is 100 ms a page.

| browsing | median (ms) | slowest (ms) |
|---|---:|---:|
${rows.map((row) => `| ${row.label} | ${ms(median(row.times))} | ${ms(Math.max(...row.times))} |`).join('\n')}

${machine()}

Command: \`pnpm bench:dashboard\` (\`--documents\`, \`--pages\`).`;
writeSection(root, opts.out, 'Dashboard document browser', markdown);
