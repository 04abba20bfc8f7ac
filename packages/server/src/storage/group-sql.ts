import type { GroupPlan } from '@dataplatform/contract';
import type { QuerySql } from './query-sql.js';

/**
 * One engine statement for a grouped query, in the contract's two steps (see GroupPlan): an inner SELECT
 * makes one JSON object per group from the documents that pass WHERE; the outer SELECT filters those rows by
 * HAVING, sorts and pages them, and answers the selected columns, with the same predicates, sort terms and
 * projection as a query over documents. Every value and path is bound by `builder`.
 */
export function groupedStatement(
  builder: QuerySql,
  plan: GroupPlan,
  query: { limit: number; skip: number },
  from: { collection: string; where: string | undefined },
): string {
  const source = builder.groupSource(from.collection, from.where, () => {
    const keys = plan.keys.map((path) => builder.groupKey(builder.field(path)));
    const row = builder.groupRow([
      ...keys.map((key, i): [string, string] => [`k${i}`, builder.keyJson(key)]),
      ...plan.aggregates.map((aggregate, i): [string, string] => [
        `a${i}`,
        builder.aggregate(aggregate, aggregate.path ? builder.field(aggregate.path) : undefined),
      ]),
    ]);
    return { keys, row };
  });
  const { keys, row } = source.value;
  let inner = `SELECT ${row} AS data FROM ${source.from}`;
  if (keys.length > 0) inner += ` GROUP BY ${keys.join(', ')}`;
  let sql = `SELECT ${builder.projection(plan.fields)} FROM (${inner}) AS g`;
  if (plan.having) sql += ` WHERE ${builder.where(plan.having)}`;
  if (plan.sort.length > 0) sql += ` ORDER BY ${builder.orderBy(plan.sort, false)}`;
  return `${sql} ${builder.page(query.limit, query.skip)}`;
}
