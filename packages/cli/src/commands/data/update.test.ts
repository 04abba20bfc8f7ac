import { describe, expect, it } from 'vitest';
import { parseArgs, runCli } from '../../../test/harness.js';
import { useMockApi } from '../../../test/mock-api.js';
import { newUpdateCommand } from './update.js';

describe('dp data update: arguments', () => {
  it.each([
    {
      argv: ['orders', 'o-1', '{"a":null}'],
      options: { collection: 'orders', id: 'o-1', patch: '{"a":null}' },
    },
    {
      argv: ['orders', 'o-1', '@p.json', '--idempotency-key', 'k'],
      options: { collection: 'orders', id: 'o-1', patch: '@p.json', idempotencyKey: 'k' },
    },
  ])('$argv', async ({ argv, options }) => {
    const parsed = await parseArgs(newUpdateCommand, argv);
    expect(parsed.ok && parsed.options).toEqual(options);
  });

  it('refuses four arguments with exit status 2', async () => {
    expect(await parseArgs(newUpdateCommand, ['a', 'b', '{}', '{}'])).toMatchObject({ ok: false, code: 2 });
  });
});

describe('dp data update: run', () => {
  const api = useMockApi();

  it('merges the patch: sets, merges nested objects and removes fields set to null', async () => {
    api.mocks.store.seed('orders', [
      { _id: 'o-1', total: 1, note: 'x', shipping: { city: 'Oslo', express: true } },
    ]);
    const patch = '{"total":2,"note":null,"shipping":{"city":"Bergen"}}';
    const result = await runCli(['data', 'update', 'orders', 'o-1', patch], { env: api.env });
    expect(result.code).toBe(0);
    const doc = JSON.parse(result.stdout);
    expect(doc).toMatchObject({ _id: 'o-1', total: 2, shipping: { city: 'Bergen', express: true } });
    expect(doc).not.toHaveProperty('note');
    expect(api.requests()).toEqual(['PATCH /api/v1/data/orders/o-1']);
  });

  it('refuses a patch that is not an object, before sending', async () => {
    const result = await runCli(['data', 'update', 'orders', 'o-1', '42'], { env: api.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: the patch from the argument must be a JSON object');
    expect(api.requests()).toEqual([]);
  });
});
