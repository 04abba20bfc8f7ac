import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs, runCli, tempConfigDir } from '../../../test/harness.js';
import { useMockApi } from '../../../test/mock-api.js';
import { newInsertCommand } from './insert.js';

describe('dp data insert: arguments', () => {
  it.each([
    { argv: ['orders', '{"a":1}'], options: { collection: 'orders', document: '{"a":1}' } },
    { argv: ['orders', '@order.json'], options: { collection: 'orders', document: '@order.json' } },
    { argv: ['orders', '-'], options: { collection: 'orders', document: '-' } },
    { argv: ['orders'], options: { collection: 'orders', document: undefined } },
    {
      argv: ['orders', '{}', '--idempotency-key', 'k1'],
      options: { collection: 'orders', document: '{}', idempotencyKey: 'k1' },
    },
  ])('$argv', async ({ argv, options }) => {
    const parsed = await parseArgs(newInsertCommand, argv);
    expect(parsed.ok && parsed.options).toEqual(options);
  });

  it('refuses a missing collection with exit status 2', async () => {
    expect(await parseArgs(newInsertCommand, [])).toMatchObject({ ok: false, code: 2 });
  });
});

describe('dp data insert: run', () => {
  const api = useMockApi();

  it.each([
    { how: 'an argument', argv: ['{"total":42}'], stdin: undefined },
    { how: 'standard input when piped', argv: [], stdin: '{"total":42}\n' },
    { how: '"-"', argv: ['-'], stdin: '{"total":42}' },
  ])('stores the document from $how and prints it', async ({ argv, stdin }) => {
    const result = await runCli(['data', 'insert', 'orders', ...argv], { env: api.env, stdin });
    expect(result.code).toBe(0);
    const stored = api.mocks.store.collection('orders');
    expect(stored).toEqual([expect.objectContaining({ total: 42 })]);
    expect(JSON.parse(result.stdout)).toEqual(stored[0]);
    expect(api.requests()).toEqual(['POST /api/v1/data/orders']);
  });

  it('stores the document from @file', async () => {
    const file = join(tempConfigDir(), 'order.json');
    writeFileSync(file, '{"_id":"o-9","total":9}');
    const result = await runCli(['data', 'insert', 'orders', `@${file}`], { env: api.env });
    expect(result.code).toBe(0);
    expect(api.mocks.store.collection('orders')).toEqual([expect.objectContaining({ _id: 'o-9', total: 9 })]);
  });

  it('confirms on a terminal', async () => {
    const result = await runCli(['data', 'insert', 'orders', '{"_id":"o-1"}'], {
      env: { ...api.env, NO_COLOR: '1' },
      tty: { stdout: true, stderr: true },
    });
    expect(result.stderr).toBe('✓ Inserted o-1 into "orders"\n');
  });

  it('sends the given Idempotency-Key, so a second run answers the same without writing twice', async () => {
    const argv = ['data', 'insert', 'orders', '{"total":1}', '--idempotency-key', 'import-7'];
    const first = await runCli(argv, { env: api.env });
    const second = await runCli(argv, { env: api.env });
    expect(second.stdout).toBe(first.stdout);
    expect(api.mocks.store.collection('orders')).toHaveLength(1);
    expect(api.requests()).toEqual(['POST /api/v1/data/orders', 'POST /api/v1/data/orders']);
  });

  it.each([
    { argv: ['{"total":'], stdin: undefined, error: 'the document from the argument is not valid JSON' },
    { argv: ['[{"a":1}]'], stdin: undefined, error: 'the document from the argument must be a JSON object' },
    {
      argv: ['@/nonexistent/order.json'],
      stdin: undefined,
      error: 'could not read the document from /nonexistent/order.json: no such file',
    },
    { argv: [], stdin: '  \n', error: 'the document from standard input is empty' },
  ])('refuses $argv before sending anything, with exit status 2', async ({ argv, stdin, error }) => {
    const result = await runCli(['data', 'insert', 'orders', ...argv], { env: api.env, stdin });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`error: ${error}`);
    expect(api.requests()).toEqual([]);
  });

  it('asks for the document when none is given on a terminal', async () => {
    const result = await runCli(['data', 'insert', 'orders'], { env: api.env, tty: { stdin: true } });
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: no document given\nhint: give the document as an argument, as @file, or on standard input\n',
    });
  });

  it('exits with status 6 for a duplicate _id, pointing at replace', async () => {
    api.mocks.store.seed('orders', [{ _id: 'o-1' }]);
    const result = await runCli(['data', 'insert', 'orders', '{"_id":"o-1"}'], { env: api.env });
    expect(result.code).toBe(6);
    expect(result.stderr).toContain('409 conflict');
    expect(result.stderr).toContain('`dp data replace` overwrites it');
  });

  it('exits with status 1 for a body the server refuses', async () => {
    const result = await runCli(['data', 'insert', 'orders', '{"_secret":1}'], { env: api.env });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('could not insert a document into "orders": 400 invalid_body');
  });
});
