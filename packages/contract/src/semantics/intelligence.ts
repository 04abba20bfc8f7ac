/** Rules of the intelligence engine that the server and the mocks both follow. */
import {
  type Dataset,
  type FieldSummary,
  type FieldType,
  MIN_TRAINING_ROWS,
  type ModelAlgorithm,
  type ModelCreate,
  type ModelTask,
} from '../schemas/intelligence.js';
import type { Violation } from './documents.js';

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
  const present = rows
    .map((row) => row[name])
    .filter((v): v is Scalar => !isMissing(v) && typeof v !== 'object');
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

/** A seeded pseudo-random generator (mulberry32): the same seed gives the same split on every machine. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** The row numbers shuffled by the seed, cut into training rows and `testFraction` held-out rows (at least one each). */
export function splitRows(count: number, testFraction: number, seed: number) {
  const order = Array.from({ length: count }, (_, i) => i);
  const random = seeded(seed);
  for (let i = count - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const testCount = Math.min(count - 1, Math.max(1, Math.round(count * testFraction)));
  return { test: order.slice(0, testCount), train: order.slice(testCount) };
}

/** A number target of at most this many distinct values can be classified. */
const MAX_NUMBER_CLASSES = 20;

/** The algorithm of each task when none is named, and the ones that fit it. */
const ALGORITHMS: Record<ModelTask, readonly ModelAlgorithm[]> = {
  regression: ['linear', 'random_forest'],
  classification: ['logistic', 'random_forest'],
  clustering: ['kmeans'],
};

/** Thrown inside `checkModel` and turned into its answer. */
class Refused extends Error {
  constructor(readonly violation: Violation) {
    super(violation.message);
  }
}

const refuse = (message: string, details?: Record<string, unknown>) =>
  new Refused({ code: 'validation_error', message, ...(details ? { details } : {}) });

/** What to train, once checked against the dataset. */
export interface CheckedModel {
  algorithm: ModelAlgorithm;
  target: string | null;
  features: string[];
}

/**
 * The checks of `checkModel`, throwing: 409 `conflict` for a dataset not ready;
 * 400 `validation_error` for an algorithm that does not fit the task, a missing, unknown or ill-typed target, an
 * unknown feature, or too few rows.
 */
function check(body: ModelCreate, dataset: Dataset): CheckedModel {
  if (dataset.status !== 'ready')
    throw new Refused({
      code: 'conflict',
      message: `Dataset "${dataset._id}" is ${dataset.status}: a model needs it ready`,
    });
  const algorithm = body.algorithm ?? ALGORITHMS[body.task][0]!;
  if (!ALGORITHMS[body.task].includes(algorithm))
    throw refuse(`${algorithm} does not do ${body.task}: use ${ALGORITHMS[body.task].join(' or ')}`);
  const byName = new Map(dataset.fields.map((field) => [field.name, field]));
  let target: string | null = null;
  if (body.task === 'clustering') {
    if (body.target !== undefined) throw refuse('Clustering has no target');
  } else {
    if (body.target === undefined) throw refuse(`${body.task} needs a target`);
    const field = byName.get(body.target);
    if (!field) throw refuse(`The dataset has no field "${body.target}"`, { field: body.target });
    if (body.task === 'regression' && field.type !== 'number')
      throw refuse(`A regression target must be a number; "${field.name}" is ${field.type}`);
    if (body.task === 'classification') {
      const fits =
        field.type === 'boolean' ||
        field.type === 'category' ||
        (field.type === 'number' && (field.distinct ?? 0) <= MAX_NUMBER_CLASSES);
      if (!fits)
        throw refuse(
          `A classification target must be a category, a boolean or a number of at most ${MAX_NUMBER_CLASSES} values; "${field.name}" is ${field.type === 'number' ? `a number of ${field.distinct} values` : field.type}`,
        );
      if ((field.distinct ?? 0) < 2) throw refuse(`The target "${field.name}" has fewer than 2 classes`);
    }
    target = field.name;
  }
  const features = body.features ?? dataset.fields.map((f) => f.name).filter((name) => name !== target);
  const unknown = features.filter((name) => !byName.has(name));
  if (unknown.length > 0)
    throw refuse(`The dataset has no field(s) ${unknown.join(', ')}`, { fields: unknown });
  if (target !== null && features.includes(target)) throw refuse('The target cannot be a feature');
  if (features.length === 0) throw refuse('A model needs at least one feature');
  const rows = target === null ? dataset.rowCount : byName.get(target)!.count;
  if (rows < MIN_TRAINING_ROWS)
    throw refuse(`A model needs at least ${MIN_TRAINING_ROWS} rows with a target; the dataset has ${rows}`);
  if (algorithm === 'kmeans' && (body.params?.k ?? 3) > rows) throw refuse('k is larger than the rows');
  return { algorithm, target, features };
}

/**
 * Checks a model's body against its dataset before anything is trained (the server and the mocks both): the
 * algorithm, target and features to train with, or the violation to answer: 409 `conflict` for a dataset not
 * ready; 400 `validation_error` for an algorithm that does not fit the task, a missing, unknown or ill-typed
 * target, an unknown feature, or too few rows.
 */
export function checkModel(body: ModelCreate, dataset: Dataset): CheckedModel | { violation: Violation } {
  try {
    return check(body, dataset);
  } catch (error) {
    if (error instanceof Refused) return { violation: error.violation };
    throw error;
  }
}
