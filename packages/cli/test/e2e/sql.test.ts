import { describe, expect, it } from 'vitest';
import { dp } from './binary.js';
import { useReferenceServer } from './reference-server.js';

const reference = useReferenceServer();

describe('dp sql against the reference server', () => {
  it('binds typed parameters and prints rows as JSON lines, or the whole answer with --json', async () => {
    const env = reference().env();
    const orders = [
      { customer: 'ada', total: 120, status: 'paid' },
      { customer: 'bob', total: 80, status: 'paid' },
      { customer: 'cy', total: 300, status: 'open' },
    ].map((data) => ({ op: 'insert', collection: 'orders', data }));
    expect((await dp(['batch', '--transaction'], { env, stdin: JSON.stringify(orders) })).code).toBe(0);

    const rows = await dp(
      [
        'sql',
        'SELECT customer, total FROM orders WHERE total >= ? AND status = ? ORDER BY total DESC',
        '-p',
        '80',
        '-p',
        'paid',
      ],
      { env },
    );
    expect(rows).toEqual({
      code: 0,
      stdout: '{"customer":"ada","total":120}\n{"customer":"bob","total":80}\n',
      stderr: '',
    });

    const count = await dp(
      ['sql', 'SELECT COUNT(*) FROM orders WHERE status = $1', '--param', '"open"', '--json'],
      {
        env,
      },
    );
    expect(count.code).toBe(0);
    expect(JSON.parse(count.stdout).data).toEqual([{ count: 1 }]);
  });

  it('exits with status 1 and the server’s words for a statement it refuses', async () => {
    const result = await dp(['sql', 'SELECT * FROM orders; DROP TABLE orders'], { env: reference().env() });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: could not run the SQL statement: 400 invalid_sql: .+\n/);
    expect(result.stderr).toContain('hint: docs/sql.md lists the statements');
  });
});
