import type { CollectionQuery, SqlAggregate, SqlHaving, SqlTarget, SqlValue } from '../schemas/sql.js';

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

function aggregate(a: SqlAggregate): string {
  const argument = a.path ? `${'distinct' in a && a.distinct ? 'DISTINCT ' : ''}${path(a.path)}` : '*';
  return `${a.fn.toUpperCase()}(${argument})`;
}

function target(t: SqlTarget): string {
  return 'path' in t ? path(t.path) : aggregate(t.aggregate);
}

function condition(c: SqlHaving, params: SqlValue[]): string {
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
      return `${target(c)} IS NULL`;
    case 'isNotNull':
      return `${target(c)} IS NOT NULL`;
    case 'between':
      return `${target(c)} BETWEEN ${bind(c.values[0]!)} AND ${bind(c.values[1]!)}`;
    case 'in':
    case 'nin':
      return `${target(c)} ${OPERATORS[c.op]} (${c.values.map(bind).join(', ')})`;
    default:
      return `${target(c)} ${OPERATORS[c.op]} ${bind(c.value)}`;
  }
}

/**
 * Writes a collection query as a statement of the SQL helper with `?` parameters: the inverse of `parseSql`.
 * @example formatSql(query) // { sql: 'SELECT * FROM "orders" WHERE "total" > ? LIMIT 100 OFFSET 0', params: [100] }
 */
export function formatSql(query: CollectionQuery): { sql: string; params: SqlValue[] } {
  const params: SqlValue[] = [];
  const select = query.select;
  let columns: string;
  if (select.kind === 'all') columns = '*';
  else if (select.kind === 'count') columns = 'COUNT(*)';
  else if (select.kind === 'fields') {
    columns = select.fields.map((f) => `${path(f.path)} AS ${quoteIdentifier(f.as)}`).join(', ');
  } else {
    const list = select.columns.map((c) => `${target(c)} AS ${quoteIdentifier(c.as)}`).join(', ');
    columns = `${select.distinct ? 'DISTINCT ' : ''}${list}`;
  }
  let sql = `SELECT ${columns} FROM ${quoteIdentifier(query.collection)}`;
  if (query.where) sql += ` WHERE ${condition(query.where, params)}`;
  if (query.groupBy) sql += ` GROUP BY ${query.groupBy.map(path).join(', ')}`;
  if (query.having) sql += ` HAVING ${condition(query.having, params)}`;
  if (select.kind !== 'count') {
    if (query.sort.length > 0) {
      sql += ` ORDER BY ${query.sort.map((k) => `${target(k)} ${k.descending ? 'DESC' : 'ASC'}`).join(', ')}`;
    }
    sql += ` LIMIT ${query.limit} OFFSET ${query.skip}`;
  }
  return { sql, params };
}
