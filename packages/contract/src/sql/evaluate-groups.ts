import type { SqlAggregate } from '../schemas/sql.js';
import { compareJsonValues, type JsonObject, valueAtPath } from '../semantics/documents.js';
import type { GroupPlan } from '../semantics/sql-groups.js';

type Scalar = string | number | boolean;

/**
 * The value a field gives to GROUP BY and the aggregates: a JSON string, number or boolean. Missing fields,
 * null, arrays and objects are no value (null): engines store arrays and objects in forms whose text
 * differs, so no grouping of them could be the same everywhere.
 */
export function scalarAt(doc: JsonObject, path: readonly string[]): Scalar | null {
  const value = valueAtPath(doc, path);
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : null;
}

/**
 * Adds doubles as SQLite's sum() does (Kahan-Babuska-Neumaier compensation), so the order of the terms
 * hardly matters. A sum beyond the range of doubles is no value.
 */
function sum(numbers: readonly number[]): number | null {
  let total = 0;
  let error = 0;
  for (const x of numbers) {
    const t = total + x;
    error += Math.abs(total) > Math.abs(x) ? total - t + x : x - t + total;
    total = t;
  }
  const result = Number.isFinite(error) ? total + error : total;
  return Number.isFinite(result) ? result : null;
}

function aggregate(aggregate: SqlAggregate, docs: readonly JsonObject[]): Scalar | null {
  if (!aggregate.path) return docs.length;
  const path = aggregate.path;
  const values = docs.map((doc) => scalarAt(doc, path)).filter((v): v is Scalar => v !== null);
  switch (aggregate.fn) {
    case 'count':
      return aggregate.distinct ? new Set(values.map((v) => JSON.stringify(v))).size : values.length;
    case 'sum':
    case 'avg': {
      const numbers = values.filter((v): v is number => typeof v === 'number');
      if (numbers.length === 0) return null;
      const total = sum(numbers);
      return aggregate.fn === 'sum' || total === null ? total : total / numbers.length;
    }
    case 'min':
    case 'max': {
      const sign = aggregate.fn === 'min' ? 1 : -1;
      return values.reduce<Scalar | null>(
        (best, v) => (best === null || sign * compareJsonValues(v, best) < 0 ? v : best),
        null,
      );
    }
  }
}

/**
 * The first step of a grouped query: one row per group of `documents` (already filtered by WHERE), with the
 * grouped fields as `k<i>` and the aggregates as `a<i>`. Without grouped fields every document is one group,
 * even when there is none, as in SQL.
 */
export function groupRows(plan: GroupPlan, documents: readonly JsonObject[]): JsonObject[] {
  const groups = new Map<string, { key: (Scalar | null)[]; docs: JsonObject[] }>();
  if (plan.keys.length === 0) groups.set(JSON.stringify([]), { key: [], docs: [] });
  for (const doc of documents) {
    const key = plan.keys.map((path) => scalarAt(doc, path));
    // JSON text tells 1 from "1" and true from "true", and equal numbers have one text.
    const id = JSON.stringify(key);
    const group = groups.get(id) ?? groups.set(id, { key, docs: [] }).get(id)!;
    group.docs.push(doc);
  }
  return [...groups.values()].map(({ key, docs }) =>
    Object.fromEntries([
      ...key.map((value, i) => [`k${i}`, value]),
      ...plan.aggregates.map((a, i) => [`a${i}`, aggregate(a, docs)]),
    ]),
  );
}
