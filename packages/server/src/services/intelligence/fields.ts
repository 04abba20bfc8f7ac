import type { FieldSummary, FieldType } from '@dataplatform/contract';

/** A value a dataset keeps: scalars only; objects and arrays are left out of the fields. */
export type Scalar = number | string | boolean;

/** A string field of at most this many distinct values, each seen twice on average, is a category. */
const CATEGORY_MAX = 50;

/** The most frequent values a summary shows. */
const TOP = 10;

/** True for a value a field counts as missing: absent, null, or a number that is not finite. */
export function isMissing(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'number' && !Number.isFinite(value));
}

/** The top-level scalar fields of the rows, in the order first seen; `_id` only when asked for. */
export function fieldNames(rows: readonly Record<string, unknown>[], wanted?: readonly string[]): string[] {
  if (wanted) return [...wanted];
  const names = new Set<string>();
  for (const row of rows)
    for (const [name, value] of Object.entries(row))
      if (name !== '_id' && (isMissing(value) || typeof value !== 'object')) names.add(name);
  return [...names];
}

/** The type of a field from its values: numbers, booleans, else strings (a category when few repeat). */
function typeOf(values: readonly Scalar[]): FieldType {
  if (values.every((v) => typeof v === 'number')) return 'number';
  if (values.every((v) => typeof v === 'boolean')) return 'boolean';
  const distinct = new Set(values.map(String)).size;
  return distinct <= CATEGORY_MAX && distinct * 2 <= values.length ? 'category' : 'string';
}

/** Counts of each value, most frequent first (ties by value, so the order is stable). */
export function frequencies(values: readonly Scalar[]): { value: Scalar; count: number }[] {
  const counts = new Map<string, { value: Scalar; count: number }>();
  for (const value of values) {
    const key = `${typeof value}:${String(value)}`;
    const seen = counts.get(key);
    if (seen) seen.count++;
    else counts.set(key, { value, count: 1 });
  }
  return [...counts.values()].sort(
    (a, b) => b.count - a.count || String(a.value).localeCompare(String(b.value)),
  );
}

/** A field's inferred type and statistics over the rows. */
export function summarize(name: string, rows: readonly Record<string, unknown>[]): FieldSummary {
  const present = rows.map((row) => row[name]).filter((v): v is Scalar => !isMissing(v) && typeof v !== 'object');
  const type = present.length === 0 ? 'string' : typeOf(present);
  const base = { name, type, count: present.length, missing: rows.length - present.length };
  if (type === 'number') {
    const numbers = present as number[];
    if (numbers.length === 0) return base;
    const mean = numbers.reduce((s, v) => s + v, 0) / numbers.length;
    const variance = numbers.reduce((s, v) => s + (v - mean) ** 2, 0) / numbers.length;
    let min = numbers[0]!;
    let max = numbers[0]!;
    for (const v of numbers) {
      if (v < min) min = v;
      if (v > max) max = v;
    }
    return { ...base, min, max, mean, std: Math.sqrt(variance), distinct: new Set(numbers).size };
  }
  const values = type === 'boolean' ? present : present.map(String);
  const counted = frequencies(values);
  return {
    ...base,
    distinct: counted.length,
    top: counted.slice(0, TOP).map(({ value, count }) => ({ value: value as string | boolean, count })),
  };
}

/** The rows a dataset keeps: only its fields, scalars as they are, a mixed field's values as strings. */
export function keepFields(
  rows: readonly Record<string, unknown>[],
  fields: readonly FieldSummary[],
): Record<string, Scalar | null>[] {
  return rows.map((row) => {
    const kept: Record<string, Scalar | null> = {};
    for (const { name, type } of fields) {
      const value = row[name];
      if (isMissing(value) || typeof value === 'object') kept[name] = null;
      else if (type === 'string' || type === 'category') kept[name] = String(value);
      else kept[name] = value as Scalar;
    }
    return kept;
  });
}
