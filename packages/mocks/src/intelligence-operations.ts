import {
  checkModel,
  type Dataset,
  type DatasetCreate,
  fieldNames,
  frequencies,
  intelligenceKeyRoutes,
  type intelligenceRoutes,
  isMissing,
  keepFields,
  MAX_DATASET_ROWS,
  type Model,
  type ModelCreate,
  type Scalar,
  splitRows,
  summarize,
} from '@dataplatform/contract';
import { evaluate, parseSql } from '@dataplatform/contract/sql';
import { ApiError } from './answers.js';
import { clusterOf, finishedJob } from './backup-operations.js';
import type { Operation } from './document-operations.js';
import type { DocumentStore } from './document-store.js';
import { randomToken } from './ids.js';
import { clusterOf as keyClusterOf } from './managed-keys.js';
import { type OperationInput, parseSchemaBody } from './request-input.js';

type RouteId = (typeof intelligenceRoutes | typeof intelligenceKeyRoutes)[number]['id'];

/** The cluster of the key a key route is called with: its owner's, or the mocks' own. */
const keyCluster = (input: OperationInput) => (input.userId ? keyClusterOf(input.userId) : 'cls_mock');

/** The body of a key route checked against its schema (the mocks check only the session routes' bodies themselves). */
function keyBody<T>(id: (typeof intelligenceKeyRoutes)[number]['id'], input: OperationInput): T {
  return parseSchemaBody(intelligenceKeyRoutes.find((route) => route.id === id)!, input.body) as T;
}
type Row = Record<string, unknown>;

/** What a mock model predicts: the training rows' mean (regression) or class frequencies (classification). */
interface Baseline {
  mean: number;
  classes: { value: Scalar; share: number }[];
}

/**
 * The intelligence engine of the mocks. Datasets are real snapshots with the server's field inference, and
 * models are checked by the same rules (`checkModel`), but a model is a baseline rather than a fitted
 * algorithm: regression predicts the training mean, classification the most frequent class (its probabilities
 * the class shares), clustering cluster 0. Metrics are measured on the held-out rows of the same seeded split.
 * Everything finishes before the answer.
 */
interface Ledger {
  datasets: Map<string, { dataset: Dataset; rows: Row[] }>;
  models: Map<string, { model: Model; baseline: Baseline }>;
}

const ledgers = new WeakMap<DocumentStore, Ledger>();

function ledgerOf(store: DocumentStore): Ledger {
  let ledger = ledgers.get(store);
  if (!ledger) {
    ledger = { datasets: new Map(), models: new Map() };
    ledgers.set(store, ledger);
  }
  return ledger;
}

/** The rows of a collection, or those a SQL statement over it selects; 400 `invalid_sql` otherwise. */
function sourceRows(store: DocumentStore, collection: string, sql: string | undefined | null): Row[] {
  const documents = store.list(collection).map(({ _createdAt, _updatedAt, ...doc }) => doc as Row);
  if (!sql) return documents;
  const query = parseSql(sql, []);
  if ('code' in query) throw ApiError.fromViolation(query);
  if (query.collection !== collection)
    throw new ApiError('invalid_sql', `The statement reads "${query.collection}", not "${collection}"`);
  if (query.select.kind === 'count' || query.select.kind === 'groups')
    throw new ApiError('invalid_sql', 'A dataset is made of rows: the statement must select fields or *');
  const paged = !/\blimit\b/i.test(sql);
  return evaluate(paged ? { ...query, limit: MAX_DATASET_ROWS + 1 } : query, documents as never) as Row[];
}

function found<T extends { clusterId: string }>(
  input: OperationInput,
  entry: T | undefined,
  action: 'read' | 'intelligence',
  what: string,
): T {
  const missing = new ApiError('not_found', `${what} "${input.params.id ?? ''}" not found`);
  if (!entry) throw missing;
  try {
    clusterOf(input, entry.clusterId, action);
  } catch (error) {
    throw error instanceof ApiError && error.code === 'not_found' ? missing : error;
  }
  return entry;
}

function baselineOf(model: Model, rows: Row[]): { baseline: Baseline; metrics: Model['metrics'] } {
  const split = splitRows(rows.length, model.testFraction, (model.params.seed as number) ?? 1);
  const train = split.train.map((i) => rows[i]!);
  const test = split.test.map((i) => rows[i]!);
  const target = model.target;
  const values = (part: Row[]) => part.map((row) => row[target!] as Scalar);
  const numbers = target ? (values(train) as number[]) : [];
  const mean = numbers.reduce((s, v) => s + v, 0) / Math.max(numbers.length, 1);
  const counted = target ? frequencies(values(train)) : [];
  const classes = counted.map(({ value, count }) => ({ value, share: count / train.length }));
  const baseline = { mean, classes };
  if (model.task === 'clustering') return { baseline, metrics: { silhouette: 0 } };
  if (model.task === 'regression') {
    const truth = values(test) as number[];
    const average = truth.reduce((s, v) => s + v, 0) / truth.length;
    const residual = truth.reduce((s, v) => s + (v - mean) ** 2, 0);
    const total = truth.reduce((s, v) => s + (v - average) ** 2, 0);
    return {
      baseline,
      metrics: { rmse: Math.sqrt(residual / truth.length), r2: total ? 1 - residual / total : 0 },
    };
  }
  const top = String(classes[0]?.value);
  const right = values(test).filter((v) => String(v) === top).length;
  const accuracy = right / test.length;
  // Macro F1 of a constant guess: only its own class scores, the others are 0.
  const f1 = right === 0 ? 0 : (2 * right) / (right + test.length) / new Set(values(test).map(String)).size;
  return { baseline, metrics: { accuracy, f1 } };
}

function train(input: OperationInput, store: DocumentStore, clusterId: string, body: ModelCreate) {
  const entry = ledgerOf(store).datasets.get(body.datasetId);
  if (entry?.dataset.clusterId !== clusterId)
    throw new ApiError('not_found', `Dataset "${body.datasetId}" not found`);
  const checked = checkModel(body, entry.dataset);
  if ('violation' in checked) throw ApiError.fromViolation(checked.violation);
  const rows = checked.target ? entry.rows.filter((row) => !isMissing(row[checked.target!])) : entry.rows;
  const now = new Date().toISOString();
  const testRows = Math.min(
    rows.length - 1,
    Math.max(1, Math.round(rows.length * (body.testFraction ?? 0.2))),
  );
  const model: Model = {
    _id: `mdl_${randomToken(12)}`,
    clusterId,
    name: body.name,
    datasetId: body.datasetId,
    status: 'ready',
    task: body.task,
    ...checked,
    params: { seed: 1, ...body.params },
    testFraction: body.testFraction ?? 0.2,
    metrics: {},
    featureImportance: null,
    imputation: {},
    classes: null,
    trainRows: rows.length - testRows,
    testRows,
    failure: null,
    createdAt: now,
    completedAt: now,
  };
  const { baseline, metrics } = baselineOf(model, rows);
  model.metrics = metrics;
  if (model.task === 'classification') model.classes = baseline.classes.map((c) => c.value);
  ledgerOf(store).models.set(model._id, { model, baseline });
  finishedJob(
    input,
    clusterId,
    { kind: 'model.train', input: { modelId: model._id }, result: null },
    rows.length,
  );
  return { status: 202, body: model };
}

function predict({ model, baseline }: { model: Model; baseline: Baseline }, rows: Row[]) {
  if (model.task === 'regression') return { predictions: rows.map(() => baseline.mean) };
  if (model.task === 'clustering') return { predictions: rows.map(() => 0) };
  const shares = Object.fromEntries(baseline.classes.map((c) => [String(c.value), c.share]));
  return { predictions: rows.map(() => baseline.classes[0]!.value), probabilities: rows.map(() => shares) };
}

/** The intelligence routes. */
export const intelligenceOperations: Record<RouteId, Operation> = {
  'intelligence.datasets.create': (input, store) => {
    const body = input.body as DatasetCreate;
    const clusterId = clusterOf(input, body.clusterId ?? null, 'intelligence');
    const source = sourceRows(store, body.collection, body.sql);
    const rows = source.slice(0, MAX_DATASET_ROWS);
    const fields = fieldNames(rows, body.fields).map((name) => summarize(name, rows));
    const absent = body.fields?.filter((name) => !rows.some((row) => row[name] !== undefined)) ?? [];
    const now = new Date().toISOString();
    const dataset: Dataset = {
      _id: `ds_${randomToken(12)}`,
      clusterId,
      name: body.name.trim(),
      collection: body.collection,
      sql: body.sql ?? null,
      status: absent.length ? 'failed' : 'ready',
      rowCount: absent.length ? 0 : rows.length,
      truncated: source.length > rows.length,
      fields: absent.length ? [] : fields,
      failure: absent.length ? `No row has the field(s) ${absent.join(', ')}` : null,
      createdAt: now,
      completedAt: now,
    };
    ledgerOf(store).datasets.set(dataset._id, { dataset, rows: keepFields(rows, fields) });
    const jobInput = { datasetId: dataset._id, fields: body.fields ?? null };
    finishedJob(input, clusterId, { kind: 'dataset.build', input: jobInput, result: null }, dataset.rowCount);
    return { status: 202, body: dataset };
  },
  'intelligence.datasets.list': (input, store) => {
    const clusterId = clusterOf(input, (input.query.clusterId as string | undefined) ?? null, 'read');
    const data = [...ledgerOf(store).datasets.values()]
      .map((entry) => entry.dataset)
      .filter((dataset) => dataset.clusterId === clusterId)
      .reverse();
    return { status: 200, body: { data } };
  },
  'intelligence.datasets.get': (input, store) => ({
    status: 200,
    body: found(input, ledgerOf(store).datasets.get(input.params.id!)?.dataset, 'read', 'Dataset'),
  }),
  'intelligence.datasets.rows': (input, store) => {
    const entry = ledgerOf(store).datasets.get(input.params.id!);
    const dataset = found(input, entry?.dataset, 'read', 'Dataset');
    if (dataset.status !== 'ready')
      throw new ApiError(
        'conflict',
        `Dataset "${dataset._id}" is ${dataset.status}: it has no rows to read yet`,
      );
    const limit = input.query.limit as number;
    const skip = input.query.skip as number;
    return {
      status: 200,
      body: { data: entry!.rows.slice(skip, skip + limit), total: dataset.rowCount, limit, skip },
    };
  },
  'intelligence.datasets.delete': (input, store) => {
    const dataset = found(
      input,
      ledgerOf(store).datasets.get(input.params.id!)?.dataset,
      'intelligence',
      'Dataset',
    );
    ledgerOf(store).datasets.delete(dataset._id);
    return { status: 200, body: { _id: dataset._id, deleted: true } };
  },
  'intelligence.models.create': (input, store) => {
    const { clusterId, ...body } = input.body as ModelCreate & { clusterId?: string };
    return train(input, store, clusterOf(input, clusterId ?? null, 'intelligence'), body);
  },
  'intelligence.models.train': (input, store) =>
    train(input, store, keyCluster(input), keyBody<ModelCreate>('intelligence.models.train', input)),
  'intelligence.models.list': (input, store) => {
    const clusterId = clusterOf(input, (input.query.clusterId as string | undefined) ?? null, 'read');
    const data = [...ledgerOf(store).models.values()]
      .map((entry) => entry.model)
      .filter((model) => model.clusterId === clusterId)
      .reverse();
    return { status: 200, body: { data } };
  },
  'intelligence.models.get': (input, store) => ({
    status: 200,
    body: found(input, ledgerOf(store).models.get(input.params.id!)?.model, 'read', 'Model'),
  }),
  'intelligence.models.delete': (input, store) => {
    const model = found(input, ledgerOf(store).models.get(input.params.id!)?.model, 'intelligence', 'Model');
    ledgerOf(store).models.delete(model._id);
    return { status: 200, body: { _id: model._id, deleted: true } };
  },
  'intelligence.models.predict': (input, store) => {
    const entry = ledgerOf(store).models.get(input.params.id!);
    found(input, entry?.model, 'read', 'Model');
    return { status: 200, body: predict(entry!, (input.body as { rows: Row[] }).rows) };
  },
  'intelligence.models.predictByKey': (input, store) => {
    const body = keyBody<{ rows: Row[] }>('intelligence.models.predictByKey', input);
    const entry = ledgerOf(store).models.get(input.params.id!);
    if (entry?.model.clusterId !== keyCluster(input))
      throw new ApiError('not_found', `Model "${input.params.id}" not found`);
    return { status: 200, body: predict(entry, body.rows) };
  },
  'intelligence.predictions.create': (input, store) => {
    const body = input.body as {
      modelId: string;
      collection: string;
      sql?: string;
      outputCollection: string;
    };
    const entry = ledgerOf(store).models.get(body.modelId);
    const model = found({ ...input, params: { id: body.modelId } }, entry?.model, 'intelligence', 'Model');
    const rows = sourceRows(store, body.collection, body.sql).slice(0, MAX_DATASET_ROWS);
    const { predictions, probabilities } = predict(entry!, rows);
    rows.forEach((row, i) => {
      const data = {
        _id: row._id,
        sourceId: row._id,
        prediction: predictions[i],
        ...(probabilities ? { probabilities: probabilities[i] } : {}),
      };
      store.insert(body.outputCollection, data as never);
    });
    const jobInput = {
      modelId: model._id,
      collection: body.collection,
      sql: body.sql ?? null,
      outputCollection: body.outputCollection,
    };
    const job = finishedJob(
      input,
      model.clusterId,
      { kind: 'prediction.batch', input: jobInput, result: null },
      rows.length,
    );
    return { status: 202, body: job };
  },
};
