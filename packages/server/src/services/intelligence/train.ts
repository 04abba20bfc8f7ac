import {
  type FieldSummary,
  isMissing,
  type Model,
  type ModelAlgorithm,
  type ModelTask,
  type Scalar,
  seeded,
  splitRows,
} from '@dataplatform/contract';
import { fit, type Params } from './algorithms.js';
import { type Encoding, encodeRow, fitEncoding } from './encoding.js';
import { classificationMetrics, regressionMetrics, silhouette } from './metrics.js';

/** What a training thread is given: the dataset's rows and fields, and what to train. */
export interface TrainingRequest {
  rows: Record<string, unknown>[];
  fields: FieldSummary[];
  task: ModelTask;
  algorithm: ModelAlgorithm;
  target: string | null;
  features: string[];
  params: Params;
  testFraction: number;
}

/** A fitted model as stored: enough to predict again after a restart. */
export interface Artifact {
  version: 1;
  task: ModelTask;
  algorithm: ModelAlgorithm;
  encoding: Encoding;
  /** Classification: the classes, by index. */
  classes: Scalar[] | null;
  fitted: unknown;
}

/** What training produced: the artifact and the fields of the model record it fills in. */
export type TrainingResult = Pick<
  Model,
  'metrics' | 'featureImportance' | 'imputation' | 'classes' | 'trainRows' | 'testRows'
> & { artifact: string };

/** The silhouette reads at most this many held-out rows (its cost grows with their square). */
const SAMPLE = 2000;

const keyOf = (value: unknown) => `${typeof value}:${String(value)}`;

/** The classes of a target, sorted, and the index of each row's. */
function classesOf(values: Scalar[]): { classes: Scalar[]; index: Map<string, number> } {
  const byKey = new Map(values.map((v) => [keyOf(v), v]));
  const classes = [...byKey.values()].sort((a, b) =>
    typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b)),
  );
  return { classes, index: new Map(classes.map((c, i) => [keyOf(c), i])) };
}

function sample<T>(items: T[], seed: number): T[] {
  if (items.length <= SAMPLE) return items;
  const random = seeded(seed);
  return Array.from({ length: SAMPLE }, () => items[Math.floor(random() * items.length)]!);
}

/**
 * Trains a model: rows without a target are left out; the rest are split by the seed into training and held-out
 * rows; the encoding and the algorithm see the training rows only, and the metrics are measured on the held-out
 * rows only. Runs on the training thread.
 */
export function train(request: TrainingRequest): TrainingResult {
  const { task, algorithm, target, params } = request;
  const rows = target ? request.rows.filter((row) => !isMissing(row[target])) : request.rows;
  const split = splitRows(rows.length, request.testFraction, params.seed);
  const trainRows = split.train.map((i) => rows[i]!);
  const testRows = split.test.map((i) => rows[i]!);
  const features = request.features.map((name) => request.fields.find((f) => f.name === name)!);
  const encoding = fitEncoding(trainRows, features);
  const xTrain = trainRows.map((row) => encodeRow(encoding, row));
  const xTest = testRows.map((row) => encodeRow(encoding, row));
  let classes: Scalar[] | null = null;
  let yTrain: number[] = [];
  let yTest: number[] = [];
  if (task === 'classification') {
    const found = classesOf(rows.map((row) => row[target!] as Scalar));
    classes = found.classes;
    yTrain = trainRows.map((row) => found.index.get(keyOf(row[target!]))!);
    yTest = testRows.map((row) => found.index.get(keyOf(row[target!]))!);
  } else if (task === 'regression') {
    yTrain = trainRows.map((row) => row[target!] as number);
    yTest = testRows.map((row) => row[target!] as number);
  }
  const fitted = fit(algorithm, task, xTrain, yTrain, classes?.length ?? 0, params);
  const predicted = fitted.predict(xTest);
  const metrics =
    task === 'regression'
      ? regressionMetrics(yTest, predicted)
      : task === 'classification'
        ? classificationMetrics(yTest, predicted)
        : (() => {
            const points = sample(
              xTest.map((x, i) => ({ x, label: predicted[i]! })),
              params.seed,
            );
            return {
              silhouette: silhouette(
                points.map((p) => p.x),
                points.map((p) => p.label),
              ),
            };
          })();
  const byColumn = fitted.importance?.() ?? null;
  const artifact: Artifact = { version: 1, task, algorithm, encoding, classes, fitted: fitted.toJSON() };
  return {
    artifact: JSON.stringify(artifact),
    metrics,
    featureImportance: byColumn ? byFeature(encoding, byColumn) : null,
    imputation: encoding.imputation,
    classes,
    trainRows: trainRows.length,
    testRows: testRows.length,
  };
}

/** Column importances added up by the feature they encode, summing to 1. */
function byFeature(encoding: Encoding, byColumn: number[]): Record<string, number> {
  const sums: Record<string, number> = {};
  encoding.columns.forEach((column, i) => {
    sums[column.feature] = (sums[column.feature] ?? 0) + (byColumn[i] ?? 0);
  });
  const total = Object.values(sums).reduce((s, v) => s + v, 0);
  for (const name of Object.keys(sums)) sums[name] = total > 0 ? sums[name]! / total : 0;
  return sums;
}
