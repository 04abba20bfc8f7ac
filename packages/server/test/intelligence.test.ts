import { seeded, splitRows } from '@dataplatform/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../src/index.js';
import { regressionMetrics } from '../src/services/intelligence/metrics.js';
import { asUser, createCluster, memberAs, userOn } from './cluster-helpers.js';
import {
  availableEngines,
  bearer,
  type SignedUp,
  signUp,
  startTestServer,
  type TestServer,
} from './helpers.js';

type Row = Record<string, unknown>;
interface DatasetAnswer {
  _id: string;
  status: string;
  rowCount: number;
  fields: { name: string; type: string; count: number; missing: number; mean?: number; distinct?: number }[];
  failure: string | null;
}
interface ModelAnswer {
  _id: string;
  status: string;
  target: string | null;
  features: string[];
  metrics: Record<string, number>;
  featureImportance: Record<string, number> | null;
  imputation: Record<string, unknown>;
  classes: unknown[] | null;
  trainRows: number;
  testRows: number;
  failure: string | null;
}

/** y = 2 + 3a - 1.5b + 4 when c is "x", with a little noise; `big` is a boolean to classify; some `a` missing. */
function points(count: number, seed: number): Row[] {
  const random = seeded(seed);
  return Array.from({ length: count }, (_, i) => {
    const a = random() * 10;
    const b = random() * 5;
    const c = random() < 0.5 ? 'x' : 'y';
    return {
      _id: `p${String(i).padStart(5, '0')}`,
      a,
      b,
      c,
      y: 2 + 3 * a - 1.5 * b + (c === 'x' ? 4 : 0) + (random() - 0.5) * 0.01,
      big: a + b > 7.5,
      note: `row ${i}`,
    };
  });
}

describe.each(availableEngines())('the intelligence engine on %s', (engine) => {
  let t: TestServer;
  let owner: SignedUp;
  let cluster: string;
  let dataKey: string;

  const as = (method: string, path: string, body?: unknown, who = owner) =>
    asUser(t, who, method, path, body);
  const keyWith = async (scopes: string[]) => {
    const made = await as('POST', '/api/keys', { name: scopes.join(' '), scopes, clusterId: cluster });
    expect(made.status, await made.clone().text()).toBe(201);
    return ((await made.json()) as { secret: string }).secret;
  };
  const write = async (collection: string, rows: Row[]) => {
    const operations = rows.map((data) => ({ op: 'insert', collection, data }));
    const res = await t.call('POST', '/api/v1/data/batch', { key: dataKey, body: { operations } });
    expect(res.status, await res.clone().text()).toBe(200);
  };
  const dataset = async (body: Row): Promise<DatasetAnswer> => {
    const res = await as('POST', '/api/intelligence/datasets', { clusterId: cluster, ...body });
    expect(res.status, await res.clone().text()).toBe(202);
    return (await res.json()) as DatasetAnswer;
  };
  const train = async (body: Row): Promise<ModelAnswer> => {
    const res = await as('POST', '/api/intelligence/models', { clusterId: cluster, ...body });
    expect(res.status, await res.clone().text()).toBe(202);
    return (await res.json()) as ModelAnswer;
  };
  const predict = async (id: string, rows: Row[]) => {
    const res = await as('POST', `/api/intelligence/models/${id}/predict`, { rows });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as { predictions: unknown[]; probabilities?: Record<string, number>[] };
  };

  let pointsSet: DatasetAnswer;

  beforeAll(async () => {
    t = await startTestServer({ engine });
    owner = await userOn(t, 'team');
    cluster = (await createCluster(t, owner, 'learning'))._id;
    dataKey = await keyWith(['data:read', 'data:write']);
    await write('points', points(400, 7));
    pointsSet = await dataset({ name: 'points', collection: 'points' });
  }, 60_000);

  it('snapshots a collection: types and statistics inferred, later writes leave it as it was', async () => {
    expect(pointsSet).toMatchObject({ status: 'ready', rowCount: 400, failure: null });
    const types = Object.fromEntries(pointsSet.fields.map((f) => [f.name, f.type]));
    expect(types).toEqual({
      a: 'number',
      b: 'number',
      c: 'category',
      y: 'number',
      big: 'boolean',
      note: 'string',
    });
    expect(pointsSet.fields.find((f) => f.name === 'c')).toMatchObject({
      distinct: 2,
      count: 400,
      missing: 0,
    });
    const before = await (await as('GET', `/api/intelligence/datasets/${pointsSet._id}/rows?limit=3`)).json();
    await write('points', [{ _id: 'late', a: 1, b: 1, c: 'x', y: 0 }]);
    const patched = await t.call('PATCH', '/api/v1/data/points/p00000', { key: dataKey, body: { a: -99 } });
    expect(patched.status).toBe(200);
    const after = await (await as('GET', `/api/intelligence/datasets/${pointsSet._id}/rows?limit=3`)).json();
    expect(after).toEqual(before);
    expect(after).toMatchObject({ total: 400, limit: 3, skip: 0 });
    expect((after as { data: Row[] }).data[0]!.a).not.toBe(-99);
    const again = (await (
      await as('GET', `/api/intelligence/datasets/${pointsSet._id}`)
    ).json()) as DatasetAnswer;
    expect(again.rowCount).toBe(400);
  });

  it('keeps the rows a SQL statement selects, and the fields asked for', async () => {
    const some = await dataset({
      name: 'some',
      collection: 'points',
      sql: 'SELECT * FROM points WHERE c = ?'.replace('?', "'x'"),
      fields: ['a', 'c'],
    });
    expect(some.status).toBe('ready');
    expect(some.fields.map((f) => f.name)).toEqual(['a', 'c']);
    expect(some.fields.find((f) => f.name === 'c')).toMatchObject({ distinct: 1 });
    const other = await as('POST', '/api/intelligence/datasets', {
      clusterId: cluster,
      name: 'bad',
      collection: 'points',
      sql: 'SELECT * FROM orders',
    });
    expect(other.status).toBe(400);
    expect(((await other.json()) as { code: string }).code).toBe('invalid_sql');
  });

  it('recovers the coefficients of a linear function, with metrics measured on the held-out rows only', async () => {
    const model = await train({
      name: 'linear',
      datasetId: pointsSet._id,
      task: 'regression',
      target: 'y',
      features: ['a', 'b', 'c'],
    });
    expect(model).toMatchObject({ status: 'ready', trainRows: 320, testRows: 80, failure: null });
    const { predictions } = await predict(model._id, [
      { a: 0, b: 0, c: 'y' },
      { a: 1, b: 0, c: 'y' },
      { a: 0, b: 1, c: 'y' },
      { a: 0, b: 0, c: 'x' },
    ]);
    const [base, withA, withB, withX] = predictions as number[];
    expect(base).toBeCloseTo(2, 1);
    expect(withA! - base!).toBeCloseTo(3, 2);
    expect(withB! - base!).toBeCloseTo(-1.5, 2);
    expect(withX! - base!).toBeCloseTo(4, 2);
    // The same seeded split, predicted here: the model's metrics are those of exactly these rows.
    const rows = (
      (await (await as('GET', `/api/intelligence/datasets/${pointsSet._id}/rows?limit=1000`)).json()) as {
        data: Row[];
      }
    ).data;
    const held = splitRows(rows.length, 0.2, 1).test.map((i) => rows[i]!);
    const heldPredictions = (await predict(model._id, held)).predictions as number[];
    const measured = regressionMetrics(
      held.map((row) => row.y as number),
      heldPredictions,
    );
    expect(model.metrics.rmse).toBeCloseTo(measured.rmse, 10);
    expect(model.metrics.r2).toBeCloseTo(measured.r2, 10);
    expect(model.metrics.r2).toBeGreaterThan(0.999);
    expect(Object.keys(model.featureImportance ?? {}).sort()).toEqual(['a', 'b', 'c']);
  });

  it('classifies a boolean into booleans with probabilities, imputing a missing feature', async () => {
    for (const algorithm of ['logistic', 'random_forest']) {
      const model = await train({
        name: algorithm,
        datasetId: pointsSet._id,
        task: 'classification',
        target: 'big',
        features: ['a', 'b'],
        algorithm,
        params: { nEstimators: 10 },
      });
      expect(model.status, model.failure ?? '').toBe('ready');
      expect(model.classes).toEqual([false, true]);
      expect(model.metrics.accuracy, algorithm).toBeGreaterThan(0.85);
      expect(model.metrics.f1).toBeGreaterThan(0.8);
      expect(model.imputation.a).toBeTypeOf('number');
      const answer = await predict(model._id, [{ a: 9, b: 4 }, { a: 0.1, b: 0.1 }, { b: 0.1 }]);
      expect(answer.predictions.slice(0, 2)).toEqual([true, false]);
      expect(answer.predictions[2]).toBeTypeOf('boolean');
      expect(answer.probabilities![0]!.true).toBeGreaterThan(0.5);
    }
  });

  it('clusters without a target and answers cluster numbers', async () => {
    const model = await train({
      name: 'groups',
      datasetId: pointsSet._id,
      task: 'clustering',
      features: ['a', 'b'],
      params: { k: 2 },
    });
    expect(model.status).toBe('ready');
    expect(model.metrics.silhouette).toBeGreaterThan(0);
    const { predictions } = await predict(model._id, [{ a: 0, b: 0 }]);
    expect([0, 1]).toContain(predictions[0]);
  });

  it('refuses bad input with a clear error and trains nothing', async () => {
    const refused = async (body: Row, status: number, text: RegExp) => {
      const res = await as('POST', '/api/intelligence/models', { clusterId: cluster, name: 'bad', ...body });
      const answer = (await res.json()) as { error: string };
      expect(res.status, answer.error).toBe(status);
      expect(answer.error).toMatch(text);
    };
    const datasetId = pointsSet._id;
    const before = (
      (await (await as('GET', `/api/intelligence/models?clusterId=${cluster}`)).json()) as {
        data: unknown[];
      }
    ).data.length;
    await refused({ datasetId, task: 'regression', target: 'nope' }, 400, /no field "nope"/);
    await refused({ datasetId, task: 'regression', target: 'y', features: ['a', 'zz'] }, 400, /zz/);
    await refused({ datasetId, task: 'regression', target: 'c' }, 400, /must be a number/);
    await refused({ datasetId, task: 'classification', target: 'note' }, 400, /classification target/);
    await refused({ datasetId, task: 'classification', target: 'y' }, 400, /classification target/);
    await refused({ datasetId, task: 'regression', target: 'y', algorithm: 'kmeans' }, 400, /does not do/);
    await write('tiny', points(5, 1));
    const tiny = await dataset({ name: 'tiny', collection: 'tiny' });
    await refused({ datasetId: tiny._id, task: 'regression', target: 'y' }, 400, /at least 10 rows/);
    const building = { ...pointsSet, _id: 'ds_building', clusterId: cluster, status: 'building' };
    await t.server.storage.intelligence.createDataset(building as never);
    await refused({ datasetId: 'ds_building', task: 'regression', target: 'y' }, 409, /building/);
    const after = (
      (await (await as('GET', `/api/intelligence/models?clusterId=${cluster}`)).json()) as {
        data: unknown[];
      }
    ).data.length;
    expect(after).toBe(before);
  });

  it('lets viewers read and predict but not train; a non-member sees nothing; keys need their scopes', async () => {
    const model = await train({
      name: 'for-keys',
      datasetId: pointsSet._id,
      task: 'regression',
      target: 'y',
    });
    const viewer = await memberAs(t, owner, cluster, 'viewer');
    expect((await as('GET', `/api/intelligence/models/${model._id}`, undefined, viewer)).status).toBe(200);
    const viewed = await as(
      'POST',
      `/api/intelligence/models/${model._id}/predict`,
      { rows: [{ a: 1 }] },
      viewer,
    );
    expect(viewed.status).toBe(200);
    const trainAsViewer = await as(
      'POST',
      '/api/intelligence/models',
      { clusterId: cluster, name: 'v', datasetId: pointsSet._id, task: 'regression', target: 'y' },
      viewer,
    );
    expect(trainAsViewer.status).toBe(403);
    expect(
      (await as('DELETE', `/api/intelligence/datasets/${pointsSet._id}`, undefined, viewer)).status,
    ).toBe(403);
    const stranger = await signUp(t);
    expect((await as('GET', `/api/intelligence/models/${model._id}`, undefined, stranger)).status).toBe(404);
    expect((await as('GET', `/api/intelligence/datasets/${pointsSet._id}`, undefined, stranger)).status).toBe(
      404,
    );

    const predictKey = await keyWith(['query:execute']);
    const byKey = await t.call('POST', `/api/v1/intelligence/models/${model._id}/predict`, {
      key: predictKey,
      body: { rows: [{ a: 1, b: 0, c: 'y' }] },
    });
    expect(byKey.status, await byKey.clone().text()).toBe(200);
    const body = { name: 'by-key', datasetId: pointsSet._id, task: 'regression', target: 'y' };
    const noScope = await t.call('POST', '/api/v1/intelligence/models', { key: predictKey, body });
    expect(noScope.status).toBe(403);
    const trainKey = await keyWith(['experiment:write']);
    const trained = await t.call('POST', '/api/v1/intelligence/models', { key: trainKey, body });
    expect(trained.status, await trained.clone().text()).toBe(202);
    // Another cluster's key does not reach the model.
    const elsewhere = await t.call('POST', `/api/v1/intelligence/models/${model._id}/predict`, {
      key: t.devKey,
      body: { rows: [{ a: 1 }] },
    });
    expect(elsewhere.status).toBe(404);
  });

  it('writes a batch prediction, one document per row', async () => {
    const model = await train({ name: 'batch', datasetId: pointsSet._id, task: 'regression', target: 'y' });
    await write(
      'fresh',
      points(30, 99).map((row) => ({ ...row, _id: `f${row._id}` })),
    );
    const res = await as('POST', '/api/intelligence/predictions', {
      modelId: model._id,
      collection: 'fresh',
      outputCollection: 'fresh_predictions',
    });
    expect(res.status, await res.clone().text()).toBe(202);
    expect(await res.json()).toMatchObject({ kind: 'prediction.batch', status: 'succeeded' });
    const written = await t.call('GET', '/api/v1/data/fresh_predictions?limit=100', { key: dataKey });
    const docs = ((await written.json()) as { data: Row[] }).data;
    expect(docs).toHaveLength(30);
    expect(docs[0]).toMatchObject({ sourceId: docs[0]!._id });
    expect(docs[0]!.prediction).toBeTypeOf('number');
  });

  it('writes a batch prediction through the output collection’s validator and outbox', async () => {
    const model = await train({ name: 'checked', datasetId: pointsSet._id, task: 'regression', target: 'y' });
    await write(
      'checked_source',
      points(40, 5).map((row) => ({ ...row, _id: `c${row._id}` })),
    );
    // Predictions above 20 do not match the validator; a subscription wants every event of the output.
    const schema = { type: 'object', properties: { prediction: { type: 'number', maximum: 20 } } };
    const validator = await as('PUT', `/api/schema/collections/checked_out/validator?clusterId=${cluster}`, {
      schema,
    });
    expect(validator.status, await validator.clone().text()).toBe(200);
    await t.server.storage.webhooks.create({
      id: 'wh_predictions',
      clusterId: cluster,
      url: 'http://127.0.0.1:9/',
      events: ['*'],
      collection: 'checked_out',
      delivery: 'http',
      createdAt: new Date().toISOString(),
      secret: 'sealed',
    });
    const res = await as('POST', '/api/intelligence/predictions', {
      modelId: model._id,
      collection: 'checked_source',
      outputCollection: 'checked_out',
    });
    const job = (await res.json()) as {
      status: string;
      counts: { rows: number; inserted: number; failed: number };
      errors: { line: number; code: string }[];
    };
    expect(job.status).toBe('succeeded');
    const { predictions } = await predict(
      model._id,
      points(40, 5).map(({ _id, ...row }) => row),
    );
    const over = (predictions as number[]).filter((p) => p > 20).length;
    expect(over).toBeGreaterThan(0);
    expect(over).toBeLessThan(40);
    expect(job.counts).toEqual({ rows: 40, inserted: 40 - over, failed: over });
    expect(job.errors).toHaveLength(over);
    expect(job.errors[0]!.code).toBe('schema_violation');
    const written = await t.call('GET', '/api/v1/data/checked_out?limit=100', { key: dataKey });
    const docs = ((await written.json()) as { data: Row[] }).data;
    expect(docs).toHaveLength(40 - over);
    expect(docs.every((doc) => (doc.prediction as number) <= 20)).toBe(true);
    // Each stored prediction has its document.created event, as any other write.
    const { rows } = await t.server.storage.deliveries.list('wh_predictions', { limit: 100, skip: 0 });
    expect(rows.map((d) => d.documentId).sort()).toEqual(docs.map((doc) => doc._id).sort());
    expect(new Set(rows.map((d) => d.eventType))).toEqual(new Set(['document.created']));
  });

  it('keeps a trained model across a restart', async () => {
    const model = await train({ name: 'kept', datasetId: pointsSet._id, task: 'regression', target: 'y' });
    const rows = [{ a: 2, b: 3, c: 'x' }];
    const before = await predict(model._id, rows);
    await t.server.close();
    const again = await startServer({
      port: 0,
      host: '127.0.0.1',
      dataDir: t.dataDir,
      databaseUrl: t.databaseUrl,
      logLevel: 'warn',
    });
    try {
      const res = await fetch(`${again.url}/api/intelligence/models/${model._id}/predict`, {
        method: 'POST',
        headers: { ...bearer(owner.token), 'content-type': 'application/json' },
        body: JSON.stringify({ rows }),
      });
      expect(res.status, await res.clone().text()).toBe(200);
      expect(await res.json()).toEqual(before);
    } finally {
      await again.close();
      t.server.close = async () => {};
      await t.stop();
    }
  }, 60_000);
});
