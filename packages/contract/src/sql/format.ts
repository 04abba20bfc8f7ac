import type { CollectionQuery, SqlCondition, SqlValue } from '../schemas/sql.js';

const OPERATORS: Record<string, string> = {
  eq: '=',
  ne: '<>',
  lt: '<',
  lte: '<=',
  gt: '>',
  gte: '>=',
  like: 'LIKE',
  notLike: 'NOT LIKE',
  in: 'IN',
  nin: 'NOT IN',
};

/** Quotes one identifier: "double" quotes, or backticks for a name that holds a double quote. */
export function quoteIdentifier(name: string): string {
  if (!name.includes('"')) return `"${name}"`;
  if (!name.includes('`')) return `\`${name}\``;
  throw new Error(
    `The name ${JSON.stringify(name)} holds both quote characters and cannot be written in SQL`,
  );
}

function path(segments: readonly string[]): string {
  return segments.map(quoteIdentifier).join('.');
}

function condition(c: SqlCondition, params: SqlValue[]): string {
  const bind = (value: SqlValue) => {
    params.push(value);
    return '?';
  };
  switch (c.op) {
    case 'and':
    case 'or':
      return c.conditions.map((child) => `(${condition(child, params)})`).join(` ${c.op.toUpperCase()} `);
    case 'not':
      return `NOT (${condition(c.condition, params)})`;
    case 'isNull':
      return `${path(c.path)} IS NULL`;
    case 'isNotNull':
      return `${path(c.path)} IS NOT NULL`;
    case 'between':
      return `${path(c.path)} BETWEEN ${bind(c.values[0]!)} AND ${bind(c.values[1]!)}`;
    case 'in':
    case 'nin':
      return `${path(c.path)} ${OPERATORS[c.op]} (${c.values.map(bind).join(', ')})`;
    default:
      return `${path(c.path)} ${OPERATORS[c.op]} ${bind(c.value)}`;
  }
}

/**
 * Writes a collection query as a statement of the SQL helper with `?` parameters: the inverse of `parseSql`.
 * @example formatSql(query) // { sql: 'SELECT * FROM "orders" WHERE "total" > ? LIMIT 100 OFFSET 0', params: [100] }
 */
export function formatSql(query: CollectionQuery): { sql: string; params: SqlValue[] } {
  const params: SqlValue[] = [];
  const select =
    query.select.kind === 'all'
      ? '*'
      : query.select.kind === 'count'
        ? 'COUNT(*)'
        : query.select.fields.map((f) => `${path(f.path)} AS ${quoteIdentifier(f.as)}`).join(', ');
  let sql = `SELECT ${select} FROM ${quoteIdentifier(query.collection)}`;
  if (query.where) sql += ` WHERE ${condition(query.where, params)}`;
  if (query.select.kind !== 'count') {
    if (query.sort.length > 0) {
      sql += ` ORDER BY ${query.sort.map((k) => `${path(k.path)} ${k.descending ? 'DESC' : 'ASC'}`).join(', ')}`;
    }
    sql += ` LIMIT ${query.limit} OFFSET ${query.skip}`;
  }
  return { sql, params };
}
