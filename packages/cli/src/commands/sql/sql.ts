import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { readSource } from '../../input/source.js';
import { parseSqlParam } from '../../input/sql-params.js';
import { collect, type Run, withExamples } from '../command.js';
import { documentRows } from '../data/rows.js';

/** Options of `dp sql`. */
export interface SqlOptions {
  /** The statement: text, `@file`, `-`, or undefined for standard input. */
  statement?: string | undefined;
  /** `--param` values as typed, in order. */
  param: string[];
}

/** `dp sql "<SELECT …>" [--param value …]`. */
export function newSqlCommand(f: Factory, run: Run<SqlOptions> = runSql): Command {
  const command = new Command('sql')
    .description('Run one read-only SELECT through the SQL helper; values bind to ? or $1, $2 …')
    .argument('[statement]', 'SELECT statement, @file, or - for standard input (the default when piped)')
    .option(
      '-p, --param <value>',
      'a value for the next ? or $n, repeatable; JSON numbers, true, false, null and "quoted" strings keep their type',
      collect,
      [],
    )
    .action((statement: string | undefined, options: { param: string[] }) =>
      run(f, { statement, ...options }),
    );
  return withExamples(command, [
    `dp sql "SELECT * FROM orders WHERE total > ? ORDER BY total DESC LIMIT 10" --param 100`,
    `dp sql "SELECT customer, total FROM orders WHERE status = ?" -p paid`,
    `dp sql "SELECT COUNT(*) FROM orders" --json | jq '.data[0].count'`,
    `dp sql "SELECT status, COUNT(*), SUM(total) AS revenue FROM orders GROUP BY status ORDER BY revenue DESC"`,
  ]);
}

/** A table of rows on a terminal, one JSON row per line when piped, the API's `{ data, query }` with --json. */
export async function runSql(f: Factory, options: SqlOptions): Promise<void> {
  const source = await readSource(f.io, options.statement, 'statement');
  const params = options.param.map(parseSqlParam);
  const client = await f.client();
  const answer = await attempt(
    'run the SQL statement',
    client.data.sql(source.text.trim(), params.length > 0 ? params : undefined),
  );
  const out = await f.output();
  if (out.json) {
    await out.writeJson(answer);
    return;
  }
  if (!out.tty) {
    for (const row of answer.data) await out.writeJsonLine(row);
    return;
  }
  if (answer.data.length > 0) {
    const { header, rows } = documentRows(answer.data);
    await out.writeTable(header, rows);
  }
  out.note(`${answer.data.length} ${answer.data.length === 1 ? 'row' : 'rows'}`);
}
