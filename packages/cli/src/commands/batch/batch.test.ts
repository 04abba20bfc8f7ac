import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs, runCli, tempConfigDir } from '../../../test/harness.js';
import { useMockApi } from '../../../test/mock-api.js';
import { newBatchCommand } from './batch.js';

describe('dp batch: arguments', () => {
  it.each([
    { argv: ['ops.json'], options: { file: 'ops.json', transaction: false } },
    { argv: ['ops.json', '--transaction'], options: { file: 'ops.json', transaction: true } },
    {
      argv: ['-', '--idempotency-key', 'k'],
      options: { file: '-', transaction: false, idempotencyKey: 'k' },
    },
    { argv: [], options: { file: undefined, transaction: false } },
  ])('$argv', async ({ argv, options }) => {
    const parsed = await parseArgs(newBatchCommand, argv);
    expect(parsed.ok && parsed.options).toEqual(options);
  });

  it('refuses two files with exit status 2', async () => {
    expect(await parseArgs(newBatchCommand, ['a.json', 'b.json'])).toMatchObject({ ok: false, code: 2 });
  });
});

describe('dp batch: run', () => {
  const api = useMockApi();

  it('runs the operations of a file and prints the API answer with --json', async () => {
    api.mocks.store.seed('orders', [{ _id: 'o-1', total: 1 }]);
    const file = join(tempConfigDir(), 'ops.json');
    writeFileSync(
      file,
      JSON.stringify([
        { op: 'insert', collection: 'orders', data: { _id: 'o-2', total: 2 } },
        { op: 'patch', collection: 'orders', id: 'o-1', data: { total: 10 } },
        { op: 'get', collection: 'orders', id: 'o-1' },
      ]),
    );
    const result = await runCli(['batch', file, '--json'], { env: api.env });
    expect(result.code).toBe(0);
    const answer = JSON.parse(result.stdout);
    expect(answer.transaction).toBe(false);
    expect(answer.results.map((r: { status: number }) => r.status)).toEqual([201, 200, 200]);
    expect(answer.results[2].data).toMatchObject({ _id: 'o-1', total: 10 });
    expect(api.requests()).toEqual(['POST /api/v1/data/batch']);
  });

  it('prints every result, then exits with status 1 when some operation failed', async () => {
    const ops = [
      { op: 'insert', collection: 'orders', data: { _id: 'o-1' } },
      { op: 'get', collection: 'orders', id: 'missing' },
    ];
    const result = await runCli(['batch'], { env: api.env, stdin: JSON.stringify({ operations: ops }) });
    expect(result.code).toBe(1);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((r) => [r.index, r.status, r.error?.code])).toEqual([
      [0, 201, undefined],
      [1, 404, 'not_found'],
    ]);
    expect(result.stderr).toContain('error: 1 of 2 operations failed');
    expect(api.mocks.store.collection('orders')).toHaveLength(1);
  });

  it('keeps nothing with --transaction when an operation fails, and exits with status 6 naming it', async () => {
    const ops = [
      { op: 'insert', collection: 'orders', data: { _id: 'o-1' } },
      { op: 'delete', collection: 'orders', id: 'missing' },
    ];
    const result = await runCli(['batch', '-', '--transaction'], {
      env: api.env,
      stdin: JSON.stringify(ops),
    });
    expect(result.code).toBe(6);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      'error: could not run the batch of 2 operations as one transaction: 409 transaction_aborted',
    );
    expect(result.stderr).toContain('hint: nothing was written: operation 1 failed (404 not_found)');
    expect(api.mocks.store.collection('orders')).toEqual([]);
  });

  it('takes "transaction": true from the file', async () => {
    const body = { transaction: true, operations: [{ op: 'get', collection: 'orders', id: 'missing' }] };
    const result = await runCli(['batch'], { env: api.env, stdin: JSON.stringify(body) });
    expect(result.code).toBe(6);
  });

  it('prints a table on a terminal', async () => {
    const ops = [{ op: 'insert', collection: 'orders', data: { _id: 'o-1' } }];
    const result = await runCli(['batch'], {
      env: { ...api.env, NO_COLOR: '1' },
      stdin: JSON.stringify(ops),
      tty: { stdout: true, stderr: true },
    });
    expect(result).toEqual({
      code: 0,
      stdout: '#  op      collection  _id  status  result\n0  insert  orders      o-1  201     ok\n',
      stderr: '✓ 1 operation done\n',
    });
  });

  it('refuses a file that is not a batch, before sending', async () => {
    const result = await runCli(['batch'], { env: api.env, stdin: '{"op":"get"}' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('are neither an array nor an object with "operations"');
    expect(api.requests()).toEqual([]);
  });
});
