import trino from 'node-sql-parser/build/trino.js';
import { type CollectionQuery, SQL_DEFAULT_LIMIT, type SqlCondition } from '../schemas/sql.js';
import type { Violation } from '../semantics/documents.js';
import { type AstNode, isNode } from './ast.js';
import { condition } from './conditions.js';
import { SqlError } from './errors.js';
import { havingTarget, shapeOf, sortable, whereTarget } from './grouping.js';
import { orderOf, selectList } from './select.js';
import { collectionOf, limitsOf, refuseClauses } from './statement.js';
import { Params } from './values.js';

// The Trino grammar reads every form the helper documents: `?` and `$n`, "double" and `back` quotes, and
// field paths of any depth (a.b.c.d). What it reads beyond that is refused by the translation.
const parser = new trino.Parser();

interface PegError {
  name?: string;
  found?: string | null;
  location?: { start: { offset: number } };
}

function syntaxError(error: unknown, sql: string): SqlError {
  const peg = error as PegError;
  if (peg?.name !== 'SyntaxError' || !peg.location) {
    return new SqlError('Could not parse the statement: only SELECT … FROM <collection> … is supported');
  }
  const offset = peg.location.start.offset;
  const near = sql.slice(offset, offset + 20).trim();
  const what = near ? `near "${near}"` : 'at the end of the statement';
  return new SqlError(`Syntax error ${what}`, offset + 1);
}

/** The one SELECT statement of `sql`, as the grammar reads it; throws an SqlError for anything else. */
export function astify(sql: string): AstNode {
  let ast: unknown;
  try {
    ast = parser.astify(sql, { database: 'trino', parseOptions: { includeLocations: true } });
  } catch (error) {
    throw syntaxError(error, sql);
  }
  const statements = (Array.isArray(ast) ? ast : [ast]).filter(isNode);
  if (statements.length === 0) throw new SqlError('Empty statement: write SELECT … FROM <collection>');
  if (statements.length > 1) {
    const second = String(statements[1]!.type).toUpperCase();
    throw new SqlError(`Only one statement is allowed, found ${statements.length} (the second is ${second})`);
  }
  const statement = statements[0]!;
  if (statement.type !== 'select') {
    throw new SqlError(
      `${String(statement.type).toUpperCase()} statements are not supported: only SELECT reads`,
    );
  }
  return statement;
}

function translate(sql: string, values: readonly unknown[]): CollectionQuery {
  if (sql.includes('\u0000')) throw new SqlError('The statement contains a NUL character (U+0000)');
  const statement = astify(sql);
  const params = new Params(values);
  refuseClauses(statement);
  const collection = collectionOf(statement);
  const shape = shapeOf(statement, selectList(statement));
  const select = shape.select;
  // Conditions are read in the order of the statement, so `?` parameters bind in the order written.
  const where = statement.where
    ? (condition(statement.where, { sql, params, target: whereTarget }) as SqlCondition)
    : undefined;
  const having = statement.having
    ? condition(statement.having, { sql, params, target: havingTarget(shape) })
    : undefined;
  const sort = orderOf(statement, select, sortable(shape));
  const { limit, skip } = limitsOf(statement);
  if (select.kind === 'count' && (sort.length > 0 || limit !== undefined || skip !== undefined)) {
    throw new SqlError('COUNT(*) counts every match: ORDER BY, LIMIT and OFFSET do not apply to it');
  }
  params.finish();
  return {
    collection,
    select,
    ...(where ? { where } : {}),
    ...(shape.groupBy ? { groupBy: shape.groupBy } : {}),
    ...(having ? { having } : {}),
    sort,
    limit: limit ?? SQL_DEFAULT_LIMIT,
    skip: skip ?? 0,
  };
}

/**
 * Translates one SQL statement and its parameters into a collection query, or explains (400 `invalid_sql`) what
 * is outside the supported grammar and where.
 * @example parseSql('SELECT * FROM orders WHERE total > ?', [100])
 */
export function parseSql(sql: string, params: readonly unknown[] = []): CollectionQuery | Violation {
  try {
    return translate(sql, params);
  } catch (error) {
    if (error instanceof SqlError) return error.toViolation();
    // A grammar this large can overflow the stack on deeply nested input; that is the statement's fault too.
    if (error instanceof RangeError) return new SqlError('The statement is nested too deeply').toViolation();
    throw error;
  }
}
