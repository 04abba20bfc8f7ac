import type { CollectionQuery } from '../schemas/sql.js';
import { type AstNode, functionName, isNode } from './ast.js';
import { fail, positionOf } from './errors.js';
import { fieldPath } from './fields.js';
import { checkText } from './values.js';

type Select = CollectionQuery['select'];
type SortKey = CollectionQuery['sort'][number];

/** At most this many fields per projection (PostgreSQL builds each row with one call of at most 100 arguments). */
export const MAX_FIELDS = 50;

function isStar(node: unknown): boolean {
  return isNode(node) && node.type === 'column_ref' && node.column === '*';
}

/** `*`, `COUNT(*)` or a list of fields with their keys in the answer. */
export function selectOf(statement: AstNode): Select {
  const columns = statement.columns;
  if (columns === '*') return { kind: 'all' };
  if (!Array.isArray(columns) || columns.length === 0) fail('The select list is empty', statement);
  const fields: { path: string[]; as: string }[] = [];
  const keys = new Set<string>();
  for (const column of columns as AstNode[]) {
    const expr = column.expr;
    const at = positionOf(column, positionOf(expr));
    if (!isNode(expr)) fail('Unsupported select list', column, at);
    if (isStar(expr) || (expr.type === 'aggr_func' && String(expr.name).toUpperCase() === 'COUNT')) {
      const count = !isStar(expr);
      if (count && !(isNode(expr.args) && isNode(expr.args.expr) && expr.args.expr.type === 'star')) {
        fail('Only COUNT(*) is supported', expr, at);
      }
      if (count && (column.as || expr.over))
        fail('COUNT(*) answers { "count": n }; it takes no alias', expr, at);
      if (expr.table) fail(`Write * alone, not ${String(expr.table)}.*`, expr, at);
      if (columns.length > 1)
        fail(`${count ? 'COUNT(*)' : '*'} must be the only item of the select list`, expr, at);
      return { kind: count ? 'count' : 'all' };
    }
    if (expr.type === 'function') fail(`Unknown column function ${functionName(expr)}`, expr, at);
    if (expr.type === 'aggr_func')
      fail(`Aggregate ${functionName(expr)}(…) is not supported; only COUNT(*)`, expr, at);
    const path = fieldPath(expr, at);
    if (!path) fail('Only fields, * or COUNT(*) can be selected', expr, at);
    if (column.as !== null && column.as !== undefined && typeof column.as !== 'string') {
      fail('Unsupported alias', column, at);
    }
    const key = column.as ?? path.join('.');
    if (key === '') fail('An alias may not be empty', column, at);
    checkText(key, 'An alias', at);
    if (keys.has(key)) fail(`"${key}" is selected twice; give one of them another name with AS`, column, at);
    keys.add(key);
    fields.push({ path, as: key });
  }
  if (fields.length > MAX_FIELDS) fail(`At most ${MAX_FIELDS} fields can be selected`, statement);
  return { kind: 'fields', fields };
}

/** ORDER BY keys; a bare name that is an alias of the select list sorts by that field. */
export function orderOf(statement: AstNode, select: Select): SortKey[] {
  const order = statement.orderby;
  if (!Array.isArray(order)) return [];
  return (order as AstNode[]).map((item) => {
    const expr = item.expr;
    const at = positionOf(expr);
    if (isNode(expr) && expr.type === 'unary_expr' && expr.operator === '-') {
      fail('ORDER BY takes field names: write field DESC for descending order', expr, at);
    }
    if (item.nulls) fail('NULLS FIRST/LAST is not supported: missing and null fields sort first', expr, at);
    if (!isNode(expr)) fail('ORDER BY takes field names', undefined, at);
    if (expr.type === 'number') fail('ORDER BY takes field names, not positions', expr, at);
    if (expr.type === 'function') fail(`Unknown function ${functionName(expr)} in ORDER BY`, expr, at);
    const path = fieldPath(expr, at);
    if (!path) fail('ORDER BY takes field names', expr, at);
    const alias =
      path.length === 1 && select.kind === 'fields' ? select.fields.find((f) => f.as === path[0]) : undefined;
    return { path: alias ? alias.path : path, descending: String(item.type).toUpperCase() === 'DESC' };
  });
}
