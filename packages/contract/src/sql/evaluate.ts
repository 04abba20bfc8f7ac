import { likeMatches } from '../like.js';
import type { CollectionQuery, SqlCondition, SqlValue } from '../schemas/sql.js';
import { compareDocuments, compareJsonValues, type JsonObject, valueAtPath } from '../semantics/documents.js';
import { groupPlan, isGroupedQuery } from '../semantics/sql-groups.js';
import { groupRows } from './evaluate-groups.js';

/**
 * How a field value compares with a condition value: a number for two numbers or two strings, 0 or undefined for
 * two booleans (which only compare for equality), undefined for anything else (missing, null, another type,
 * arrays and objects), which makes every comparison false.
 */
function order(field: unknown, value: SqlValue, equalityOnly: boolean): number | undefined {
  if (field === null || value === null || typeof field !== typeof value) return undefined;
  if (typeof field === 'boolean') return equalityOnly && field === value ? 0 : undefined;
  if (typeof field !== 'number' && typeof field !== 'string') return undefined;
  return compareJsonValues(field, value);
}

const is = {
  eq: (x: unknown, v: SqlValue) => order(x, v, true) === 0,
  lt: (x: unknown, v: SqlValue) => (order(x, v, false) ?? 0) < 0,
  lte: (x: unknown, v: SqlValue) => {
    const o = order(x, v, false);
    return o !== undefined && o <= 0;
  },
  gt: (x: unknown, v: SqlValue) => (order(x, v, false) ?? 0) > 0,
  gte: (x: unknown, v: SqlValue) => {
    const o = order(x, v, false);
    return o !== undefined && o >= 0;
  },
  like: (x: unknown, v: SqlValue) => typeof x === 'string' && typeof v === 'string' && likeMatches(x, v),
};

/** True when the document satisfies the condition, in the helper's two-valued logic. */
export function matches(condition: SqlCondition, doc: JsonObject): boolean {
  switch (condition.op) {
    case 'and':
      return condition.conditions.every((c) => matches(c, doc));
    case 'or':
      return condition.conditions.some((c) => matches(c, doc));
    case 'not':
      return !matches(condition.condition, doc);
  }
  const x = valueAtPath(doc, condition.path);
  switch (condition.op) {
    case 'eq':
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
    case 'like':
      return is[condition.op](x, condition.value);
    case 'ne':
      return !is.eq(x, condition.value);
    case 'notLike':
      return !is.like(x, condition.value);
    case 'in':
      return condition.values.some((v) => is.eq(x, v));
    case 'nin':
      return !condition.values.some((v) => is.eq(x, v));
    case 'between':
      return is.gte(x, condition.values[0]!) && is.lte(x, condition.values[1]!);
    case 'isNull':
      return x === undefined || x === null;
    case 'isNotNull':
      return x !== undefined && x !== null;
  }
}

/**
 * Runs a collection query over stored documents in memory: the reference semantics every engine must match.
 * @example evaluate(parsed, [{ _id: 'a', total: 5, _createdAt: '…', _updatedAt: '…' }])
 */
export function evaluate(query: CollectionQuery, documents: readonly JsonObject[]): JsonObject[] {
  const where = query.where;
  const found = where ? documents.filter((doc) => matches(where, doc)) : [...documents];
  if (query.select.kind === 'count') return [{ count: found.length }];
  if (isGroupedQuery(query)) {
    // Grouped rows go through the same HAVING (as a WHERE), sort, page and projection as documents.
    const plan = groupPlan(query);
    const rows = groupRows(plan, found);
    const kept = plan.having ? rows.filter((row) => matches(plan.having!, row)) : rows;
    return pageAndProject(kept, plan.sort, query, plan.fields);
  }
  // Only grouped queries sort by aggregates.
  const sort = query.sort as { path: string[]; descending: boolean }[];
  return pageAndProject(found, sort, query, query.select.kind === 'fields' ? query.select.fields : undefined);
}

function pageAndProject(
  rows: JsonObject[],
  sort: readonly { path: string[]; descending: boolean }[],
  { skip, limit }: { skip: number; limit: number },
  fields: readonly { path: string[]; as: string }[] | undefined,
): JsonObject[] {
  rows.sort((a, b) => compareDocuments(a, b, sort));
  const page = rows.slice(skip, skip + limit);
  if (!fields) return page;
  // fromEntries defines own properties, so an alias such as "__proto__" stays an ordinary key.
  return page.map((doc) => Object.fromEntries(fields.map((f) => [f.as, valueAtPath(doc, f.path) ?? null])));
}
