import type { CollectionQuery, SqlTarget } from '../schemas/sql.js';
import { aggregateOf, isAggregate } from './aggregates.js';
import { type AstNode, functionName, isNode } from './ast.js';
import { fail, positionOf } from './errors.js';
import { fieldPath } from './fields.js';
import { aliasTarget, MAX_FIELDS, type SelectList } from './select.js';

type Select = CollectionQuery['select'];

/** What the select list, DISTINCT and GROUP BY make of a statement: its select and the grouped fields. */
export interface Shape {
  select: Select;
  /** Absent when rows are not grouped (and for aggregates over every match, which make one row). */
  groupBy?: string[][];
}

const samePath = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((step, i) => step === b[i]);

/** True when `groupBy` lists the field `path`. */
export function isGrouped(groupBy: readonly string[][] | undefined, path: readonly string[]): boolean {
  return groupBy?.some((g) => samePath(g, path)) ?? false;
}

function groupByOf(statement: AstNode): string[][] | undefined {
  const clause = statement.groupby;
  if (!clause) return undefined;
  const columns = isNode(clause) && Array.isArray(clause.columns) ? clause.columns : clause;
  if (!Array.isArray(columns) || columns.length === 0) fail('GROUP BY takes field names', clause);
  const paths: string[][] = [];
  for (const node of columns as unknown[]) {
    const at = positionOf(node);
    if (!isNode(node)) fail('GROUP BY takes field names', undefined, at);
    if (node.type === 'number') fail('GROUP BY takes field names, not positions', node, at);
    if (isAggregate(node)) fail('GROUP BY takes fields, not aggregates', node, at);
    if (node.type === 'function') fail(`Unknown function ${functionName(node)} in GROUP BY`, node, at);
    const path = fieldPath(node, at);
    if (!path) fail('GROUP BY takes field names', node, at);
    if (isGrouped(paths, path)) fail(`${path.join('.')} is grouped twice`, node, at);
    paths.push(path);
  }
  if (paths.length > MAX_FIELDS) fail(`At most ${MAX_FIELDS} fields can be grouped`, clause);
  return paths;
}

function isDistinct(statement: AstNode): boolean {
  const type = isNode(statement.distinct) ? statement.distinct.type : undefined;
  if (!type) return false;
  if (String(type).toUpperCase() !== 'DISTINCT') fail(`SELECT ${String(type)} is not supported`);
  return true;
}

/**
 * Decides how rows are made: whole documents, projections, the count of matches, or groups. A selected field
 * of a grouped query must be grouped; DISTINCT alone groups by the selected fields.
 */
export function shapeOf(statement: AstNode, list: SelectList): Shape {
  const distinct = isDistinct(statement);
  const written = groupByOf(statement);
  if (statement.having && !written) {
    fail(
      'HAVING needs GROUP BY: HAVING filters groups, WHERE filters documents',
      statement.having,
      positionOf(statement.having),
    );
  }
  if (list.star) {
    if (distinct)
      fail('DISTINCT does not apply to *: name the fields, as in SELECT DISTINCT status', undefined, list.at);
    if (written)
      fail('SELECT * cannot be grouped: select the grouped fields and aggregates', undefined, list.at);
    return { select: { kind: 'all' } };
  }
  const columns = list.columns;
  const aggregated = columns.some((c) => 'aggregate' in c);
  if (!distinct && !written) {
    if (!aggregated)
      return { select: { kind: 'fields', fields: columns as { path: string[]; as: string }[] } };
    const only = columns[0]!;
    const unaliased = (statement.columns as AstNode[])[0]?.as == null;
    // COUNT(*) alone keeps the answer it had before grouping existed: [{ "count": n }].
    if (columns.length === 1 && 'aggregate' in only && !only.aggregate.path && unaliased) {
      return { select: { kind: 'count' } };
    }
  }
  let groupBy = written;
  if (distinct && !written && !aggregated) {
    groupBy = [];
    for (const column of columns)
      if ('path' in column && !isGrouped(groupBy, column.path)) groupBy.push(column.path);
  }
  columns.forEach((column, i) => {
    if ('path' in column && !isGrouped(groupBy, column.path)) {
      fail(
        `${column.path.join('.')} is neither grouped nor aggregated: add it to GROUP BY or use an aggregate such as MIN(${column.path.join('.')})`,
        undefined,
        list.at[i],
      );
    }
  });
  if (distinct && written) {
    const missing = written.find((path) => !columns.some((c) => 'path' in c && samePath(c.path, path)));
    if (missing) {
      fail(
        `SELECT DISTINCT with GROUP BY needs every grouped field in the select list; ${missing.join('.')} is not`,
      );
    }
  }
  return {
    select: { kind: 'groups', ...(distinct ? { distinct: true as const } : {}), columns },
    ...(groupBy ? { groupBy } : {}),
  };
}

/** What HAVING may read: an aggregate, an alias of the select list, or a grouped field. */
export function havingTarget(shape: Shape) {
  return (node: AstNode, at: number | undefined): SqlTarget | undefined => {
    if (isAggregate(node)) return { aggregate: aggregateOf(node, at) };
    const path = fieldPath(node, at);
    if (!path) return undefined;
    const target = aliasTarget(path, shape.select) ?? { path };
    if ('path' in target && !isGrouped(shape.groupBy, target.path)) {
      fail(`${path.join('.')} in HAVING is neither grouped nor aggregated`, node, at);
    }
    return target;
  };
}

/** What WHERE may read: document fields only, since it runs before grouping. */
export function whereTarget(node: AstNode, at: number | undefined): SqlTarget | undefined {
  if (isAggregate(node)) {
    fail(
      'Aggregates are not allowed in WHERE, which filters documents before grouping: use HAVING',
      node,
      at,
    );
  }
  const path = fieldPath(node, at);
  return path ? { path } : undefined;
}

/** Refuses an ORDER BY key that the shape's rows do not have. */
export function sortable(shape: Shape) {
  return (target: SqlTarget, node: AstNode, at: number | undefined): void => {
    const grouped = shape.select.kind === 'groups';
    if ('aggregate' in target && !grouped) {
      fail('ORDER BY an aggregate needs GROUP BY or aggregates in the select list', node, at);
    }
    if ('path' in target && grouped && !isGrouped(shape.groupBy, target.path)) {
      fail(`ORDER BY ${target.path.join('.')}: the field is neither grouped nor aggregated`, node, at);
    }
  };
}
