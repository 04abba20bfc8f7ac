import type { CollectionQuery, SqlAggregate, SqlTarget } from '../schemas/sql.js';
import { aggregateOf, aggregateText, isAggregate } from './aggregates.js';
import { type AstNode, functionName, isNode } from './ast.js';
import { fail, positionOf } from './errors.js';
import { fieldPath } from './fields.js';
import { checkText } from './values.js';

type Select = CollectionQuery['select'];
type SortKey = CollectionQuery['sort'][number];
type Column = { path: string[]; as: string } | { aggregate: SqlAggregate; as: string };

/** At most this many columns per select list (PostgreSQL builds each row with one call of at most 100 arguments). */
export const MAX_FIELDS = 50;

/** The select list as written: `*`, or columns with their keys and where each starts. */
export type SelectList =
  | { star: true; at: number | undefined }
  | { star: false; columns: Column[]; at: (number | undefined)[] };

function isStar(node: unknown): boolean {
  return isNode(node) && node.type === 'column_ref' && node.column === '*';
}

function aliasOf(column: AstNode, fallback: string, at: number | undefined): string {
  if (column.as !== null && column.as !== undefined && typeof column.as !== 'string') {
    fail('Unsupported alias', column, at);
  }
  const key = column.as ?? fallback;
  if (key === '') fail('An alias may not be empty', column, at);
  checkText(key, 'An alias', at);
  return key;
}

/** Reads the select list: `*` alone, or fields and aggregates, each keyed by its alias or its text. */
export function selectList(statement: AstNode): SelectList {
  const columns = statement.columns;
  if (columns === '*') return { star: true, at: undefined };
  if (!Array.isArray(columns) || columns.length === 0) fail('The select list is empty', statement);
  const out: Column[] = [];
  const where: (number | undefined)[] = [];
  const keys = new Set<string>();
  for (const column of columns as AstNode[]) {
    const expr = column.expr;
    const at = positionOf(column, positionOf(expr));
    if (!isNode(expr)) fail('Unsupported select list', column, at);
    if (isStar(expr)) {
      if (expr.table) fail(`Write * alone, not ${String(expr.table)}.*`, expr, at);
      if (columns.length > 1) fail('* must be the only item of the select list', expr, at);
      return { star: true, at };
    }
    if (expr.type === 'function') fail(`Unknown column function ${functionName(expr)}`, expr, at);
    let item: Column;
    if (isAggregate(expr)) {
      const aggregate = aggregateOf(expr, at);
      item = { aggregate, as: aliasOf(column, aggregateText(aggregate), at) };
    } else {
      const path = fieldPath(expr, at);
      if (!path) fail('Only fields, aggregates or * can be selected', expr, at);
      item = { path, as: aliasOf(column, path.join('.'), at) };
    }
    if (keys.has(item.as)) {
      fail(`"${item.as}" is selected twice; give one of them another name with AS`, column, at);
    }
    keys.add(item.as);
    out.push(item);
    where.push(at);
  }
  if (out.length > MAX_FIELDS) fail(`At most ${MAX_FIELDS} columns can be selected`, statement);
  return { star: false, columns: out, at: where };
}

/** The target a select column reads. */
export function columnTarget(column: Column): SqlTarget {
  return 'path' in column ? { path: column.path } : { aggregate: column.aggregate };
}

/** The select column whose alias a bare name is, if any. */
export function aliasTarget(path: readonly string[], select: Select): SqlTarget | undefined {
  if (path.length !== 1) return undefined;
  if (select.kind === 'fields') {
    const field = select.fields.find((f) => f.as === path[0]);
    return field ? { path: field.path } : undefined;
  }
  if (select.kind === 'groups') {
    const column = select.columns.find((c) => c.as === path[0]);
    return column ? columnTarget(column) : undefined;
  }
  return undefined;
}

/**
 * ORDER BY keys; a bare name that is an alias of the select list sorts by what that column reads. In a
 * grouped query a key is an alias, a grouped field or an aggregate (`allowed` refuses the rest).
 */
export function orderOf(
  statement: AstNode,
  select: Select,
  allowed: (target: SqlTarget, node: AstNode, at: number | undefined) => void,
): SortKey[] {
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
    const descending = String(item.type).toUpperCase() === 'DESC';
    let target: SqlTarget;
    if (isAggregate(expr)) {
      target = { aggregate: aggregateOf(expr, at) };
    } else {
      const path = fieldPath(expr, at);
      if (!path) fail('ORDER BY takes field names', expr, at);
      target = aliasTarget(path, select) ?? { path };
    }
    allowed(target, expr, at);
    return { ...target, descending };
  });
}
