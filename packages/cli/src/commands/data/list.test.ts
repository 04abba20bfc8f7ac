import { describe, expect, it } from 'vitest';
import { parseArgs, runCli } from '../../../test/harness.js';
import { useMockApi } from '../../../test/mock-api.js';
import { newListCommand } from './list.js';

describe('dp data list: arguments', () => {
  it.each([
    { argv: ['orders'], options: { collection: 'orders', all: false } },
    {
      argv: ['orders', '--limit', '5', '--skip', '10', '--sort', '-total,_id'],
      options: { collection: 'orders', limit: 5, skip: 10, sort: '-total,_id', all: false },
    },
    { argv: ['orders', '--all'], options: { collection: 'orders', all: true } },
    {
      argv: ['--all', 'orders', '--limit', '1000'],
      options: { collection: 'orders', all: true, limit: 1000 },
    },
  ])('$argv', async ({ argv, options }) => {
    const parsed = await parseArgs(newListCommand, argv);
    expect(parsed).toEqual({ ok: true, options, flags: expect.any(Object) });
  });

  it('takes the global flags after the command too', async () => {
    const parsed = await parseArgs(newListCommand, ['orders', '--json', '--profile', 'ci', '--no-color']);
    expect(parsed.ok && parsed.flags).toEqual({ profile: 'ci', json: true, color: false });
  });

  it.each([
    { argv: [], error: "missing required argument 'collection'" },
    { argv: ['orders', '--limit', '0'], error: 'expected a whole number from 1 to 1000' },
    { argv: ['orders', '--limit', '1001'], error: 'expected a whole number from 1 to 1000' },
    { argv: ['orders', '--skip', '-1'], error: 'expected a whole number 0 or more' },
    { argv: ['orders', '--limit', 'ten'], error: 'expected a whole number from 1 to 1000' },
    { argv: ['orders', 'more'], error: 'too many arguments' },
    { argv: ['orders', '--page', '2'], error: "unknown option '--page'" },
  ])('refuses $argv with exit status 2', async ({ argv, error }) => {
    const parsed = await parseArgs(newListCommand, argv);
    expect(parsed).toMatchObject({ ok: false, code: 2 });
    expect(parsed.ok || parsed.stderr).toContain(error);
  });
});

describe('dp data list: run', () => {
  const api = useMockApi();
  const seed = (count: number) =>
    api.mocks.store.seed(
      'orders',
      Array.from({ length: count }, (_, i) => ({
        _id: `o${i + 1}`,
        customer: `c${i + 1}`,
        total: (i + 1) * 10,
      })),
    );

  it('prints a table and a note on a terminal', async () => {
    seed(3);
    const result = await runCli(['data', 'list', 'orders', '--limit', '2'], {
      env: { ...api.env, NO_COLOR: '1' },
      tty: { stdout: true, stderr: true },
    });
    expect(result).toEqual({
      code: 0,
      stdout: '_id  customer  total\no1   c1        10\no2   c2        20\n',
      stderr: 'Showing 1–2 of 3 in "orders"\n',
    });
    expect(api.requests()).toEqual(['GET /api/v1/data/orders?limit=2&skip=0']);
  });

  it('prints one JSON document per line when piped, and no note', async () => {
    const [first, second] = seed(2);
    const result = await runCli(['data', 'list', 'orders'], { env: api.env });
    expect(result).toEqual({
      code: 0,
      stdout: `${JSON.stringify(first)}\n${JSON.stringify(second)}\n`,
      stderr: '',
    });
    expect(api.requests()).toEqual(['GET /api/v1/data/orders?skip=0']);
  });

  it('prints the API page with --json', async () => {
    const docs = seed(3);
    const result = await runCli(['data', 'list', 'orders', '--skip', '1', '--sort', '-total', '--json'], {
      env: api.env,
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ data: [docs[1], docs[0]], total: 3, limit: 50, skip: 1 });
    expect(api.requests()).toEqual(['GET /api/v1/data/orders?skip=1&sort=-total']);
  });

  it('walks every page with --all, streaming { data, total } with --json', async () => {
    const docs = seed(5);
    const result = await runCli(['data', 'list', 'orders', '--all', '--limit', '2', '--json'], {
      env: api.env,
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ data: docs, total: 5 });
    expect(api.requests()).toEqual([
      'GET /api/v1/data/orders?limit=2&skip=0',
      'GET /api/v1/data/orders?limit=2&skip=2',
      'GET /api/v1/data/orders?limit=2&skip=4',
    ]);
  });

  it('prints an empty list as { data: [], total: 0 } with --all --json', async () => {
    const result = await runCli(['data', 'list', 'orders', '--all', '--json'], { env: api.env });
    expect(JSON.parse(result.stdout)).toEqual({ data: [], total: 0 });
    expect(api.requests()).toEqual(['GET /api/v1/data/orders?limit=1000&skip=0']);
  });

  it('prints every page as JSON lines with --all when piped', async () => {
    const docs = seed(3);
    const result = await runCli(['data', 'list', 'orders', '--all', '--limit', '2'], { env: api.env });
    expect(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual(docs);
    expect(api.requests()).toHaveLength(2);
  });

  it('sends nothing and exits with status 3 when no credential is set', async () => {
    const result = await runCli(['data', 'list', 'orders'], {
      env: { DATAPLATFORM_BASE_URL: api.env.DATAPLATFORM_BASE_URL },
    });
    expect(result).toEqual({
      code: 3,
      stdout: '',
      stderr:
        'error: no credential is set\nhint: sign in with `dp login`, or pass --api-key <key>, set DATAPLATFORM_API_KEY, or save one with `dp config set api-key <key>`\n',
    });
    expect(api.requests()).toEqual([]);
  });

  it('exits with status 3 and names where the refused key came from', async () => {
    const key = api.mocks.addKey({ scopes: ['data:read'], status: 'paused' });
    const result = await runCli(['data', 'list', 'orders', '--api-key', key], { env: api.env });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(
      'error: could not list documents of "orders": 401 key_paused: API key is paused',
    );
    expect(result.stderr).toContain('hint: the API key (the API key from --api-key) is paused');
    expect(api.requests()).toEqual(['GET /api/v1/data/orders?skip=0']);
  });
});
