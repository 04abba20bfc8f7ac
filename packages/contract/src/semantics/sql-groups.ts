import type { CollectionQuery, SqlAggregate, SqlCondition, SqlHaving, SqlTarget } from '../schemas/sql.js';

/** The target of a condition leaf, sort key or column, without its other properties. */
export function targetOf(item: SqlTarget): SqlTarget {
  return 'path' in item ? { path: item.path } : { aggregate: item.aggregate };
}

/** True when two targets read the same field or the same aggregate. */
export function sameTarget(a: SqlTarget, b: SqlTarget): boolean {
  return JSON.stringify(targetOf(a)) === JSON.stringify(targetOf(b));
}

/** A query that answers one row per group. */
export type GroupedQuery = CollectionQuery & { select: { kind: 'groups' } };

/** True when the query answers one row per group. */
export function isGroupedQuery(query: CollectionQuery): query is GroupedQuery {
  return query.select.kind === 'groups';
}

/**
 * How every engine runs a grouped query, in two steps. First each group becomes one row, an object with a
 * column `k<i>` per grouped field and `a<i>` per distinct aggregate the query reads anywhere. Then HAVING,
 * ORDER BY, LIMIT and the answer's columns are an ordinary query over those rows, with the grouped fields
 * as the last sort keys so that the order is total.
 */
export interface GroupPlan {
  /** The grouped fields; column `k<i>`. */
  keys: string[][];
  /** Every aggregate of the select list, HAVING and ORDER BY, once; column `a<i>`. */
  aggregates: SqlAggregate[];
  /** HAVING, over the group rows' columns. */
  having?: SqlCondition;
  sort: { path: string[]; descending: boolean }[];
  /** The answer's columns, read from the group rows. */
  fields: { path: string[]; as: string }[];
}

function mapHaving(having: SqlHaving, column: (target: SqlTarget) => string[]): SqlCondition {
  switch (having.op) {
    case 'and':
    case 'or':
      return { op: having.op, conditions: having.conditions.map((c) => mapHaving(c, column)) };
    case 'not':
      return { op: 'not', condition: mapHaving(having.condition, column) };
  }
  const { path: _path, aggregate: _aggregate, ...rest } = having as Record<string, unknown>;
  return { ...rest, path: column(having) } as SqlCondition;
}

/** The two-step plan of a grouped query (see GroupPlan). */
export function groupPlan(query: GroupedQuery): GroupPlan {
  const keys = query.groupBy ?? [];
  const aggregates: SqlAggregate[] = [];
  const column = (target: SqlTarget): string[] => {
    if ('path' in target) {
      const index = keys.findIndex((key) => sameTarget({ path: key }, target));
      if (index < 0) throw new Error(`${target.path.join('.')} is not grouped`);
      return [`k${index}`];
    }
    let index = aggregates.findIndex((a) => sameTarget({ aggregate: a }, target));
    if (index < 0) index = aggregates.push(target.aggregate) - 1;
    return [`a${index}`];
  };
  const fields = query.select.columns.map((c) => ({
    path: column('path' in c ? { path: c.path } : { aggregate: c.aggregate }),
    as: c.as,
  }));
  const having = query.having ? mapHaving(query.having, column) : undefined;
  const sort = query.sort.map((key) => ({ path: column(key), descending: key.descending }));
  const last = query.sort.at(-1)?.descending ?? false;
  for (let i = 0; i < keys.length; i++) sort.push({ path: [`k${i}`], descending: last });
  return { keys, aggregates, ...(having ? { having } : {}), sort, fields };
}
