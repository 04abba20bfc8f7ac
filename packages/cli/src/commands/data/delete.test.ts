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
    { argv: ['orders', 'o-1', '--yes'], options: { collection: 'orders', id: 'o-1', yes: true } },
    { argv: ['orders', 'o-1', '-y'], options: { collection: 'orders', id: 'o-1', yes: true } },
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

  it('deletes quietly when piped with --yes', async () => {
    api.mocks.store.seed('orders', [{ _id: 'o-1' }]);
    const result = await runCli(['data', 'delete', 'orders', 'o-1', '--yes'], { env: api.env });
    expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(api.mocks.store.collection('orders')).toEqual([]);
    expect(api.requests()).toEqual(['DELETE /api/v1/data/orders/o-1']);
  });

  it('prints { _id, deleted } with --json, and confirms on a terminal otherwise', async () => {
    api.mocks.store.seed('orders', [{ _id: 'o-1' }, { _id: 'o-2' }]);
    const json = await runCli(['data', 'delete', 'orders', 'o-1', '--json', '-y'], { env: api.env });
    expect(JSON.parse(json.stdout)).toEqual({ _id: 'o-1', deleted: true });
    const tty = await runCli(['data', 'delete', 'orders', 'o-2', '--yes'], {
      env: { ...api.env, NO_COLOR: '1' },
      tty: { stdout: true, stderr: true },
    });
    expect(tty).toEqual({ code: 0, stdout: '', stderr: '✓ Deleted o-2 from "orders"\n' });
  });

  it('refuses without --yes when not interactive, and sends nothing (status 2)', async () => {
    api.mocks.store.seed('orders', [{ _id: 'o-1' }]);
    const result = await runCli(['data', 'delete', 'orders', 'o-1', '--json'], {
      env: api.env,
      tty: { stdout: true, stderr: true },
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toEqual({
      error: {
        message:
          'refusing to delete document "o-1" of "orders" without confirmation: standard input is not a terminal to ask on',
        exitCode: 2,
        hint: 'pass --yes to confirm',
      },
    });
    expect(api.mocks.store.collection('orders')).toHaveLength(1);
    expect(api.requests()).toEqual([]);
  });

  it('asks on a terminal: y deletes, anything else keeps the document (status 1)', async () => {
    api.mocks.store.seed('orders', [{ _id: 'o-1' }]);
    const tty = { stdin: true, stdout: true, stderr: true };
    const env = { ...api.env, NO_COLOR: '1' };
    const kept = await runCli(['data', 'delete', 'orders', 'o-1'], { env, tty, stdin: 'n\n' });
    expect(kept.code).toBe(1);
    expect(kept.stderr).toMatch(/^Delete document "o-1" of "orders"\? \[y\/N\] .*not confirmed/s);
    expect(api.requests()).toEqual([]);
    const deleted = await runCli(['data', 'delete', 'orders', 'o-1'], { env, tty, stdin: 'y\n' });
    expect(deleted).toEqual({
      code: 0,
      stdout: '',
      stderr: 'Delete document "o-1" of "orders"? [y/N] ✓ Deleted o-1 from "orders"\n',
    });
    expect(api.requests()).toEqual(['DELETE /api/v1/data/orders/o-1']);
  });

  it('exits with status 4 when there is nothing to delete', async () => {
    const result = await runCli(['data', 'delete', 'orders', 'nope', '--yes'], { env: api.env });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('could not delete document "nope" of "orders": 404 not_found');
  });
});
