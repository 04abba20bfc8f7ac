import { describe, expect, it } from 'vitest';
import { parseArgs, runCli } from '../../../test/harness.js';
import { useMockApi } from '../../../test/mock-api.js';
import { newJobsCancelCommand } from './cancel.js';
import { newJobsGetCommand } from './get.js';
import { newJobsListCommand } from './list.js';
import { newJobsWatchCommand } from './watch.js';

describe('dp jobs: arguments', () => {
  it('parses list, get, watch and cancel', async () => {
    expect(await parseArgs(newJobsListCommand, ['--limit', '5'])).toMatchObject({
      ok: true,
      options: { limit: 5 },
    });
    expect(await parseArgs(newJobsGetCommand, ['job_1'])).toMatchObject({
      ok: true,
      options: { id: 'job_1' },
    });
    expect(await parseArgs(newJobsWatchCommand, ['job_1'])).toMatchObject({
      ok: true,
      options: { id: 'job_1', interval: 1000 },
    });
    expect(await parseArgs(newJobsWatchCommand, ['job_1', '--interval', '50'])).toMatchObject({
      options: { interval: 50 },
    });
    expect(await parseArgs(newJobsCancelCommand, ['job_1'])).toMatchObject({
      ok: true,
      options: { id: 'job_1' },
    });
  });

  it.each([
    [newJobsListCommand, ['--limit', '0']],
    [newJobsGetCommand, []],
    [newJobsWatchCommand, ['job_1', '--interval', '10']],
    [newJobsCancelCommand, ['a', 'b']],
  ] as const)('refuses bad arguments with exit status 2 (%#)', async (make, argv) => {
    expect(await parseArgs(make as never, [...argv])).toMatchObject({ ok: false, code: 2 });
  });
});

describe('dp jobs: run', () => {
  const api = useMockApi();

  async function signedIn() {
    const user = await api.signUp({
      email: 'ada@example.com',
      password: 'correct horse battery',
      name: 'Ada',
    });
    return { env: user.env, userId: user.userId };
  }

  it('lists jobs: a table on a terminal, a JSON line each when piped, the page with --json', async () => {
    const job = api.mocks.store.seedJob({ status: 'succeeded', counts: { rows: 3, inserted: 2, failed: 1 } });
    const piped = await runCli(['jobs'], { env: api.env });
    expect(piped.code).toBe(0);
    expect(JSON.parse(piped.stdout)).toEqual(job);
    const table = await runCli(['jobs', 'list'], {
      env: { ...api.env, NO_COLOR: '1' },
      tty: { stdout: true, stderr: true },
    });
    expect(table.stdout.split('\n')[0]).toMatch(
      /^id\s+kind\s+status\s+collection\s+rows\s+stored\s+refused\s+created$/,
    );
    expect(table.stdout).toContain(`${job._id}  import  succeeded  seeded`);
    expect(table.stderr).toBe('Showing 1 of 1 jobs\n');
    const json = await runCli(['jobs', '--json', '--limit', '1'], { env: api.env });
    expect(JSON.parse(json.stdout)).toMatchObject({ total: 1, limit: 1, data: [job] });
    expect(api.requests()).toEqual([
      'GET /api/v1/data/jobs',
      'GET /api/v1/data/jobs',
      'GET /api/v1/data/jobs?limit=1',
    ]);
  });

  it('gets a job, and exits with status 4 for an unknown one', async () => {
    const job = api.mocks.store.seedJob({
      status: 'failed',
      errors: [{ line: 7, code: 'invalid_json', message: 'Unexpected token' }],
      failure: { code: 'row_refused', message: 'Stopped at line 7' },
    });
    const shown = await runCli(['jobs', 'get', job._id], {
      env: { ...api.env, NO_COLOR: '1' },
      tty: { stdout: true },
    });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('Failure:    row_refused: Stopped at line 7');
    expect(shown.stdout).toContain('7     invalid_json  Unexpected token');
    const missing = await runCli(['jobs', 'get', 'job_nope'], { env: api.env });
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain('could not get job "job_nope"');
    expect(api.requests()).toEqual([`GET /api/v1/data/jobs/${job._id}`, 'GET /api/v1/data/jobs/job_nope']);
  });

  it('watches a job until it finishes, one JSON line per change when piped; status 1 when it was cancelled', async () => {
    const { env, userId } = await signedIn();
    const job = api.mocks.store.seedJob({}, userId);
    const watching = runCli(['jobs', 'watch', job._id, '--interval', '50'], { env });
    await new Promise((resolve) => setTimeout(resolve, 120));
    const cancelled = await runCli(['jobs', 'cancel', job._id, '--json'], { env });
    expect(cancelled.code).toBe(0);
    expect(JSON.parse(cancelled.stdout)).toMatchObject({ _id: job._id, status: 'cancelled' });
    const result = await watching;
    expect(result.code).toBe(1);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).status);
    expect(lines).toEqual(['running', 'cancelled']);
    expect(result.stderr).toContain(`error: job ${job._id} cancelled after 0 rows`);
    expect(api.requests().filter((r) => r.startsWith('POST'))).toEqual(
      ['/api/auth/signup', `/api/jobs/${job._id}/cancel`].map((path) => `POST ${path}`),
    );
  });

  it('cancelling a finished job exits with status 6; with an API key the server asks for a session (status 3)', async () => {
    const { env, userId } = await signedIn();
    const done = api.mocks.store.seedJob({ status: 'succeeded' }, userId);
    const finished = await runCli(['jobs', 'cancel', done._id], { env });
    expect(finished.code).toBe(6);
    const withKey = await runCli(['jobs', 'cancel', done._id], { env: api.env });
    expect(withKey.code).toBe(3);
    expect(api.requests().slice(1)).toEqual([
      `POST /api/jobs/${done._id}/cancel`,
      `POST /api/jobs/${done._id}/cancel`,
    ]);
  });
});
