import { describe, expect, it } from 'vitest';
import { parseArgs, runCli } from '../../../test/harness.js';
import { useMockApi } from '../../../test/mock-api.js';
import { newDeleteCommand } from './delete.js';

describe('dp data delete: arguments', () => {
  it.each([
    { argv: ['orders', 'o-1'], options: { collection: 'orders', id: 'o-1' } },
    {
      argv: ['orders', 'o-1', '--idempotency-key', 'k'],
      options: { collection: 'orders', id: 'o-1', idempotencyKey: 'k' },
    },
  ])('$argv', async ({ argv, options }) => {
    const parsed = await parseArgs(newDeleteCommand, argv);
    expect(parsed.ok && parsed.options).toEqual(options);
  });

  it('refuses a missing id with exit status 2', async () => {
    expect(await parseArgs(newDeleteCommand, ['orders'])).toMatchObject({ ok: false, code: 2 });
  });
});

describe('dp data delete: run', () => {
  const api = useMockApi();

  it('deletes quietly when piped', async () => {
    api.mocks.store.seed('orders', [{ _id: 'o-1' }]);
    const result = await runCli(['data', 'delete', 'orders', 'o-1'], { env: api.env });
    expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(api.mocks.store.collection('orders')).toEqual([]);
    expect(api.requests()).toEqual(['DELETE /api/v1/data/orders/o-1']);
  });

  it('prints { _id, deleted } with --json, and confirms on a terminal otherwise', async () => {
    api.mocks.store.seed('orders', [{ _id: 'o-1' }, { _id: 'o-2' }]);
    const json = await runCli(['data', 'delete', 'orders', 'o-1', '--json'], { env: api.env });
    expect(JSON.parse(json.stdout)).toEqual({ _id: 'o-1', deleted: true });
    const tty = await runCli(['data', 'delete', 'orders', 'o-2'], {
      env: { ...api.env, NO_COLOR: '1' },
      tty: { stdout: true, stderr: true },
    });
    expect(tty).toEqual({ code: 0, stdout: '', stderr: '✓ Deleted o-2 from "orders"\n' });
  });

  it('exits with status 4 when there is nothing to delete', async () => {
    const result = await runCli(['data', 'delete', 'orders', 'nope'], { env: api.env });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('could not delete document "nope" of "orders": 404 not_found');
  });
});
