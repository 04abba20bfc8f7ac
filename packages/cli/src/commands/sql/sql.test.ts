import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs, runCli, tempConfigDir } from '../../../test/harness.js';
import { useMockApi } from '../../../test/mock-api.js';
import { newSqlCommand } from './sql.js';

describe('dp sql: arguments', () => {
  it.each([
    { argv: ['SELECT * FROM orders'], options: { statement: 'SELECT * FROM orders', param: [] } },
    {
      argv: ['SELECT * FROM o WHERE a = ? AND b = ?', '--param', '1', '-p', 'x'],
      options: { statement: 'SELECT * FROM o WHERE a = ? AND b = ?', param: ['1', 'x'] },
    },
    { argv: [], options: { statement: undefined, param: [] } },
  ])('$argv', async ({ argv, options }) => {
    const parsed = await parseArgs(newSqlCommand, argv);
    expect(parsed.ok && parsed.options).toEqual(options);
  });

  it('refuses --param without a value with exit status 2', async () => {
    const parsed = await parseArgs(newSqlCommand, ['SELECT 1', '--param']);
    expect(parsed).toMatchObject({ ok: false, code: 2 });
  });
});

describe('dp sql: run', () => {
  const api = useMockApi();
  const seed = () =>
    api.mocks.store.seed('orders', [
      { _id: 'a', customer: 'ada', total: 120, status: 'paid' },
      { _id: 'b', customer: 'bob', total: 80, status: 'paid' },
      { _id: 'c', customer: 'cy', total: 300, status: 'open' },
    ]);

  it('binds typed parameters and prints the API answer with --json', async () => {
    seed();
    const result = await runCli(
      [
        'sql',
        'SELECT customer, total FROM orders WHERE total > ? AND status = ? ORDER BY total DESC',
        '--param',
        '100',
        '--param',
        'paid',
        '--json',
      ],
      { env: api.env },
    );
    expect(result.code).toBe(0);
    const answer = JSON.parse(result.stdout);
    expect(answer.data).toEqual([{ customer: 'ada', total: 120 }]);
    expect(answer).toHaveProperty('query');
    expect(api.requests()).toEqual(['POST /api/v1/data/sql']);
  });

  it('prints a table and a row count on a terminal', async () => {
    seed();
    const result = await runCli(['sql', 'SELECT customer, total FROM orders ORDER BY total LIMIT 2'], {
      env: { ...api.env, NO_COLOR: '1' },
      tty: { stdout: true, stderr: true },
    });
    expect(result).toEqual({
      code: 0,
      stdout: 'customer  total\nbob       80\nada       120\n',
      stderr: '2 rows\n',
    });
  });

  it('prints grouped rows as a table, columns in the order of the select list', async () => {
    seed();
    const result = await runCli(
      [
        'sql',
        'SELECT status, COUNT(*), SUM(total) AS revenue FROM orders GROUP BY status ORDER BY revenue DESC',
      ],
      { env: { ...api.env, NO_COLOR: '1' }, tty: { stdout: true, stderr: true } },
    );
    expect(result).toEqual({
      code: 0,
      stdout: 'status  COUNT(*)  revenue\nopen    1         300\npaid    2         200\n',
      stderr: '2 rows\n',
    });
  });

  it('prints one JSON row per line when piped, reading the statement from standard input', async () => {
    seed();
    const result = await runCli(['sql'], { env: api.env, stdin: 'SELECT COUNT(*) FROM orders\n' });
    expect(result).toEqual({ code: 0, stdout: '{"count":3}\n', stderr: '' });
  });

  it('reads the statement from @file', async () => {
    seed();
    const file = join(tempConfigDir(), 'q.sql');
    writeFileSync(file, 'SELECT _id FROM orders WHERE customer = ?');
    const result = await runCli(['sql', `@${file}`, '-p', '"cy"'], { env: api.env });
    expect(result.stdout).toBe('{"_id":"c"}\n');
  });

  it('exits with status 1 and points at the SQL guide for a statement the helper refuses', async () => {
    const result = await runCli(['sql', 'DELETE FROM orders'], { env: api.env });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error: could not run the SQL statement: 400 invalid_sql');
    expect(result.stderr).toContain('hint: docs/sql.md lists the statements the SQL helper understands');
    expect(api.requests()).toEqual(['POST /api/v1/data/sql']);
  });
});
