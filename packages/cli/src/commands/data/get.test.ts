import { describe, expect, it } from 'vitest';
import { parseArgs, runCli } from '../../../test/harness.js';
import { useMockApi } from '../../../test/mock-api.js';
import { newGetCommand } from './get.js';

describe('dp data get: arguments', () => {
  it.each([
    { argv: ['orders', 'o-1'], options: { collection: 'orders', id: 'o-1' } },
    { argv: ['orders', 'a b/c'], options: { collection: 'orders', id: 'a b/c' } },
  ])('$argv', async ({ argv, options }) => {
    expect(await parseArgs(newGetCommand, argv)).toMatchObject({ ok: true, options });
  });

  it.each([
    { argv: ['orders'], error: "missing required argument 'id'" },
    { argv: ['orders', 'a', 'b'], error: 'too many arguments' },
  ])('refuses $argv with exit status 2', async ({ argv, error }) => {
    const parsed = await parseArgs(newGetCommand, argv);
    expect(parsed).toMatchObject({ ok: false, code: 2 });
    expect(parsed.ok || parsed.stderr).toContain(error);
  });
});

describe('dp data get: run', () => {
  const api = useMockApi();

  it('prints the document as indented JSON', async () => {
    const [doc] = api.mocks.store.seed('orders', [{ _id: 'o-1', total: 42, items: ['pen'] }]);
    const result = await runCli(['data', 'get', 'orders', 'o-1'], { env: api.env });
    expect(result).toEqual({ code: 0, stdout: `${JSON.stringify(doc, null, 2)}\n`, stderr: '' });
    expect(api.requests()).toEqual(['GET /api/v1/data/orders/o-1']);
  });

  it('colours the JSON on a coloured terminal, and not with --no-color', async () => {
    api.mocks.store.seed('orders', [{ _id: 'o-1', paid: true }]);
    const tty = { stdout: true, stderr: true };
    const colored = await runCli(['data', 'get', 'orders', 'o-1'], { env: api.env, tty });
    expect(colored.stdout).toContain('\u001b[36m"paid"\u001b[39m: \u001b[33mtrue\u001b[39m');
    const plain = await runCli(['data', 'get', 'orders', 'o-1', '--no-color'], { env: api.env, tty });
    expect(plain.stdout).toContain('"paid": true');
    expect(plain.stdout).not.toContain('\u001b[');
  });

  it('encodes the id as one path segment', async () => {
    api.mocks.store.seed('orders', [{ _id: 'a b?c', total: 1 }]);
    const result = await runCli(['data', 'get', 'orders', 'a b?c', '--json'], { env: api.env });
    expect(JSON.parse(result.stdout)).toMatchObject({ _id: 'a b?c' });
    expect(api.requests()).toEqual(['GET /api/v1/data/orders/a%20b%3Fc']);
  });

  it('exits with status 4 and a hint when the document does not exist', async () => {
    const result = await runCli(['data', 'get', 'orders', 'nope'], { env: api.env });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^error: could not get document "nope" of "orders": 404 not_found: .+\nhint: check the collection name and the id; `dp data list <collection>` shows the ids\nrequest id: \S+\n$/,
    );
    expect(api.requests()).toEqual(['GET /api/v1/data/orders/nope']);
  });

  it('writes the failure as one JSON object on standard error with --json', async () => {
    const result = await runCli(['data', 'get', 'orders', 'nope', '--json'], { env: api.env });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toEqual({
      error: {
        message: expect.stringMatching(/^could not get document "nope" of "orders": 404 not_found/),
        operation: 'get document "nope" of "orders"',
        code: 'not_found',
        status: 404,
        requestId: expect.any(String),
        details: { collection: 'orders', id: 'nope' },
        hint: expect.any(String),
        exitCode: 4,
      },
    });
  });
});
