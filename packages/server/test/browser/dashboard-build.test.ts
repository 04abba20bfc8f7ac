import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../helpers.js';
import { hasChromium, launchChromium } from './chromium.js';
import {
  pageReady,
  seriousViolations,
  signedInDashboard,
  statusText,
  watchedPage,
} from './dashboard-helpers.js';

// The areas where users build on their data: functions, triggers, schema, intelligence; and the account's
// clusters and billing.
let t: TestServer;
let browser: Browser;
let page: Page;
let errors: string[];
let token: string;

beforeAll(async () => {
  t = await startTestServer();
  const operations = Array.from({ length: 40 }, (_, n) => ({
    op: 'insert',
    collection: 'points',
    data: { x: n, y: 2 * n + 1 },
  }));
  expect((await t.call('POST', '/api/v1/data/batch', { body: { operations } })).status).toBe(200);
  if (hasChromium) {
    browser = await launchChromium();
    ({ page, errors, token } = await signedInDashboard(browser, t));
  }
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

const session = async (path: string) =>
  (await fetch(`${t.url}${path}`, { headers: bearer(token) })).json() as Promise<{
    data?: unknown[];
    plan?: string;
  }>;
const table = (caption: string) =>
  page.locator('table', { has: page.locator('caption', { hasText: caption }) });
const confirm = (name: string) => page.getByRole('dialog').getByRole('button', { name }).click();

describe.skipIf(!hasChromium && !process.env.CI)('building in the dashboard, in Chromium', () => {
  it('creates a function, deploys a new version, invokes it and lists its runs', async () => {
    await page.goto(`${t.url}/dashboard/functions`);
    await pageReady(page, 'Functions');
    await page.getByLabel('Name').fill('greet');
    await page.getByRole('button', { name: 'Create function' }).click();
    await page.waitForURL(/\/dashboard\/functions\/\S+$/);
    const code = page.getByLabel('Code (version 1)');
    await code.fill(
      'export default async function (input, ctx) { ctx.log("hi"); return { hello: input.name }; }',
    );
    await page.getByRole('button', { name: 'Deploy new version' }).click();
    await expect.poll(() => page.getByLabel('Code (version 2)').count()).toBe(1);
    await page.getByLabel('Input (JSON)').fill('{ "name": "Ada" }');
    await page.getByRole('button', { name: 'Invoke function' }).click();
    await expect.poll(() => page.getByTestId('function-result').textContent()).toContain('"hello": "Ada"');
    await expect.poll(() => table('Runs of greet').locator('tbody').textContent()).toContain('hi');
    expect(await seriousViolations(page)).toEqual([]);
  }, 60_000);

  it("edits a function's limits and environment without showing a stored value", async () => {
    const created = await fetch(`${t.url}/api/functions`, {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'configured',
        code: 'export default async function (input, ctx) { return ctx.env; }',
        env: { GREETING: 'greeting-before', API_TOKEN: 'token-s3cret-value' },
      }),
    });
    expect(created.status).toBe(201);
    const { _id: id } = await created.json();
    await page.goto(`${t.url}/dashboard/functions/${id}`);
    await pageReady(page, 'Functions');
    const envTable = table('Environment values of configured').locator('tbody');
    await expect.poll(() => envTable.textContent()).toContain('API_TOKEN');
    expect(await page.content()).not.toContain('token-s3cret-value');
    expect(await page.content()).not.toContain('greeting-before');

    await page.getByLabel('Time limit (ms)').fill('2500');
    await page.getByLabel('Memory limit (MiB)').fill('128');
    await page.getByLabel('New value of GREETING').fill('greeting-after');
    await page.getByRole('button', { name: 'Remove API_TOKEN' }).click();
    await page.getByLabel('Variable name').fill('REGION');
    await page.getByLabel('Variable value').fill('eu-west');
    await page.getByRole('button', { name: 'Add variable' }).click();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save limits and environment' }).click();
    await expect.poll(() => page.getByLabel('Code (version 2)').count()).toBe(1);
    const saved = await (await fetch(`${t.url}/api/functions/${id}`, { headers: bearer(token) })).json();
    expect(saved).toMatchObject({
      version: 2,
      timeoutMs: 2500,
      memoryMb: 128,
      code: 'export default async function (input, ctx) { return ctx.env; }',
      env: { GREETING: 'greeting-after', REGION: 'eu-west' },
    });
    expect(Object.keys(saved.env)).toHaveLength(2);
    // After the reload the new values are stored ones: listed by name only.
    await expect.poll(() => envTable.textContent()).toContain('REGION');
    expect(await page.content()).not.toContain('greeting-after');
    expect(await page.content()).not.toContain('eu-west');

    // A value left empty keeps what is stored.
    await page.getByLabel('Time limit (ms)').fill('3000');
    await page.getByRole('button', { name: 'Save limits and environment' }).click();
    await expect.poll(() => page.getByLabel('Code (version 3)').count()).toBe(1);
    const kept = await (await fetch(`${t.url}/api/functions/${id}`, { headers: bearer(token) })).json();
    expect(kept).toMatchObject({ timeoutMs: 3000, env: { GREETING: 'greeting-after', REGION: 'eu-west' } });
    expect(errors).toEqual([]);
  }, 60_000);

  it('creates a trigger on a schedule, runs it now, pauses and deletes it', async () => {
    await page.goto(`${t.url}/dashboard/triggers`);
    await pageReady(page, 'Triggers');
    await page.getByLabel('Name').fill('nightly');
    await page.getByLabel('Runs on').selectOption('schedule');
    await page.getByLabel('Cron expression').fill('0 3 * * *');
    await page.getByRole('button', { name: 'Create trigger' }).click();
    await expect
      .poll(() => table('Triggers of this cluster').locator('tbody').textContent())
      .toContain('Schedule 0 3 * * *');
    await page.getByRole('button', { name: 'Run nightly now' }).click();
    await expect.poll(() => statusText(page)).toBe('Started a run of nightly.');
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Refresh runs' }).click();
        return table('Runs of nightly').locator('tbody').textContent();
      })
      .toContain('ok');
    await page.getByRole('button', { name: 'Pause nightly' }).click();
    await expect.poll(() => statusText(page)).toBe('nightly is paused.');
    await page.getByRole('button', { name: 'Delete trigger nightly' }).click();
    await confirm('Delete trigger');
    await expect.poll(() => statusText(page)).toBe('Deleted nightly.');
    expect((await session('/api/triggers')).data).toEqual([]);
  }, 60_000);

  it('sets a validator, proposes one from the documents, and builds and drops an index', async () => {
    await page.goto(`${t.url}/dashboard/schema`);
    await pageReady(page, 'Schema and indexes');
    await page.getByRole('button', { name: 'Schema of points' }).click();
    await page.getByRole('button', { name: 'Propose from documents' }).click();
    await expect.poll(() => page.getByLabel('JSON Schema of points').inputValue()).toContain('"x"');
    await page.getByRole('button', { name: 'Save validator' }).click();
    await expect.poll(() => statusText(page)).toBe('Saved the validator of points.');
    expect((await t.call('POST', '/api/v1/data/points', { body: { x: 'not a number' } })).status).toBe(400);

    await page.getByLabel('Field path').fill('x');
    await page.getByRole('button', { name: 'Create index' }).click();
    await expect.poll(() => statusText(page)).toBe('Index build succeeded.');
    const indexes = table('Indexes of points').locator('tbody');
    await expect.poll(() => indexes.textContent()).toContain('x asc');
    expect(await seriousViolations(page)).toEqual([]);
    const name = (await indexes.locator('code').first().textContent())!;
    await page.getByRole('button', { name: `Drop index ${name}` }).click();
    await confirm('Drop index');
    await expect.poll(() => indexes.textContent()).toBe('No indexes.');
  }, 60_000);

  it('snapshots a dataset, trains a model and tries a prediction', async () => {
    await page.goto(`${t.url}/dashboard/intelligence`);
    await pageReady(page, 'Intelligence');
    await page.getByLabel('Dataset name').fill('line');
    await page.getByLabel('From collection').fill('points');
    await page.getByRole('button', { name: 'Create dataset' }).click();
    const datasets = table('Datasets of this cluster').locator('tbody');
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Refresh progress' }).click();
        return datasets.textContent();
      })
      .toContain('ready');
    await page.getByLabel('Model name').fill('doubler');
    await page.getByLabel('Target field').fill('y');
    // The server's training waits until the test lets it go, so the job is seen while it runs. A dataset this
    // small is trained before the request answers, so a second tab watches meanwhile.
    const runner = t.server.app.intelligenceJobs as unknown as { work(job: { kind: string }): Promise<void> };
    const work = runner.work.bind(runner);
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    runner.work = async (job) => {
      if (job.kind === 'model.train') await held;
      return work(job);
    };
    const watcher = await watchedPage(browser);
    try {
      await page.getByRole('button', { name: 'Train model' }).click();
      await expect
        .poll(async () => JSON.stringify((await session('/api/intelligence/models')).data))
        .toContain('"status":"training"');
      await watcher.context.addInitScript(
        (value) => sessionStorage.setItem('dataplatform.session', value),
        token,
      );
      await watcher.page.goto(`${t.url}/dashboard/intelligence`);
      await pageReady(watcher.page, 'Intelligence');
      const progress = watcher.page.getByRole('progressbar', { name: /^Training doubler/ });
      await expect.poll(() => progress.count()).toBe(1);
      await expect
        .poll(() => watcher.page.locator('label', { hasText: 'Training doubler' }).textContent())
        .toMatch(/^Training doubler: running$/);
      expect(await seriousViolations(watcher.page)).toEqual([]);
      release();
      // The page asks again by itself while a model trains: no click needed to see it ready, and the bar goes.
      const watched = watcher.page.locator('table', {
        has: watcher.page.locator('caption', { hasText: 'Models of this cluster' }),
      });
      await expect.poll(() => watched.locator('tbody').textContent(), { timeout: 30_000 }).toContain('ready');
      expect(await progress.count()).toBe(0);
      expect(watcher.errors).toEqual([]);
    } finally {
      release();
      delete (runner as Partial<typeof runner>).work;
      await watcher.context.close();
    }
    const models = table('Models of this cluster').locator('tbody');
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh progress' }).click();
          return models.textContent();
        },
        { timeout: 30_000 },
      )
      .toContain('ready');
    expect(await models.textContent()).toMatch(/r2 1\.000/);
    await page.getByLabel('Row (JSON)').fill('{ "x": 100 }');
    await page.getByRole('button', { name: 'Predict' }).click();
    await expect
      .poll(() => page.getByTestId('prediction').textContent())
      .toMatch(/^Prediction: 201(\.0+\d*)?/);
    expect(await seriousViolations(page)).toEqual([]);
  }, 90_000);

  it('creates a cluster, invites a member, switches to it, and pauses and resumes it', async () => {
    await page.goto(`${t.url}/dashboard/clusters`);
    await pageReady(page, 'Clusters and members');
    await page.getByLabel('Name', { exact: true }).fill('staging');
    await page.getByRole('button', { name: 'Create cluster' }).click();
    await expect.poll(() => statusText(page)).toBe('Created staging.');
    await page.getByRole('button', { name: 'Choose cluster staging' }).click();
    await pageReady(page, 'Clusters and members');
    expect(await page.getByRole('combobox').first().locator('option:checked').textContent()).toContain(
      'staging',
    );
    await page.getByLabel('E-mail to invite').fill('colleague@example.com');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await expect.poll(() => statusText(page)).toMatch(/^Invited colleague@example\.com as developer/);
    await page.getByRole('button', { name: 'Pause cluster staging' }).click();
    await confirm('Pause cluster');
    await expect.poll(() => statusText(page)).toBe('Paused staging.');
    await page.getByRole('button', { name: 'Resume cluster staging' }).click();
    await expect.poll(() => statusText(page)).toBe('Resumed staging.');
    expect(await seriousViolations(page)).toEqual([]);
  }, 60_000);

  it('shows the billing account and changes the plan', async () => {
    await page.goto(`${t.url}/dashboard/billing`);
    await pageReady(page, 'Billing and usage');
    await page.getByLabel('Plan', { exact: true }).selectOption('team');
    await expect.poll(() => statusText(page)).toBe('Now on the Team plan.');
    expect((await session('/api/billing')).plan).toBe('team');
    await expect
      .poll(() => table('Usage per day and cluster').locator('tbody tr').count())
      .toBeGreaterThan(0);
    expect(await seriousViolations(page)).toEqual([]);
  }, 60_000);

  it('logged no console errors and no uncaught exceptions', () => {
    expect(errors).toEqual([]);
  });
});
