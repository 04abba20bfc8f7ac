import { describe, expect, it } from 'vitest';
import { BadRequestError, DataPlatform, NotFoundError } from '../src/index.js';
import { useMockedApi } from './mocked-api.js';

const { baseUrl, mocks, seen, signedIn } = useMockedApi();

describe('client.intelligence', () => {
  it('builds a dataset, trains, predicts, writes a batch prediction and deletes, on the routes of the contract', async () => {
    const client = await signedIn();
    mocks.store.seed(
      'flowers',
      Array.from({ length: 20 }, (_, i) => ({ _id: `f${i}`, length: i, kind: i < 10 ? 'small' : 'large' })),
    );
    const { intelligence } = client;
    const dataset = await intelligence.datasets.create({ name: 'flowers', collection: 'flowers' });
    expect(dataset).toMatchObject({ status: 'ready', rowCount: 20 });
    expect((await intelligence.datasets.list()).data.map((d) => d._id)).toContain(dataset._id);
    expect((await intelligence.datasets.rows(dataset._id, { limit: 5 })).data).toHaveLength(5);
    const model = await intelligence.models.create({
      name: 'kind',
      datasetId: dataset._id,
      task: 'classification',
      target: 'kind',
    });
    expect(model).toMatchObject({ status: 'ready', algorithm: 'logistic', testRows: 4 });
    const { predictions, probabilities } = await intelligence.models.predict(model._id, {
      rows: [{ length: 3 }],
    });
    expect(predictions).toHaveLength(1);
    expect(probabilities?.[0]).toHaveProperty('small');
    const job = await intelligence.predictions.create({
      modelId: model._id,
      collection: 'flowers',
      outputCollection: 'scored',
    });
    expect(job).toMatchObject({ kind: 'prediction.batch', status: 'succeeded' });
    await expect(
      intelligence.models.create({ name: 'x', datasetId: dataset._id, task: 'regression', target: 'kind' }),
    ).rejects.toBeInstanceOf(BadRequestError);
    await intelligence.models.delete(model._id);
    await expect(intelligence.models.get(model._id)).rejects.toBeInstanceOf(NotFoundError);
    await intelligence.datasets.delete(dataset._id);
    expect(seen).toEqual([
      expect.stringContaining('POST /api/auth/signup'),
      'POST /api/intelligence/datasets',
      'GET /api/intelligence/datasets',
      'GET /api/intelligence/datasets/' + dataset._id + '/rows?limit=5',
      'POST /api/intelligence/models',
      `POST /api/intelligence/models/${model._id}/predict`,
      'POST /api/intelligence/predictions',
      'POST /api/intelligence/models',
      `DELETE /api/intelligence/models/${model._id}`,
      `GET /api/intelligence/models/${model._id}`,
      `DELETE /api/intelligence/datasets/${dataset._id}`,
    ]);
  });

  it('trains and predicts with API keys on the /api/v1 routes', async () => {
    const client = await signedIn();
    mocks.store.seed(
      'points',
      Array.from({ length: 12 }, (_, i) => ({ _id: `p${i}`, x: i, y: 2 * i })),
    );
    const dataset = await client.intelligence.datasets.create({ name: 'p', collection: 'points' });
    const trainer = await client.keys.create({ name: 't', scopes: ['experiment:write', 'query:execute'] });
    const byKey = new DataPlatform({ baseUrl, apiKey: trainer.secret, maxRetries: 0 });
    const model = await byKey.intelligence.models.train({
      name: 'line',
      datasetId: dataset._id,
      task: 'regression',
      target: 'y',
    });
    expect(model.status).toBe('ready');
    const { predictions } = await byKey.intelligence.models.predictByKey(model._id, { rows: [{ x: 1 }] });
    expect(predictions[0]).toBeTypeOf('number');
    expect(seen).toContain('POST /api/v1/intelligence/models');
    expect(seen).toContain(`POST /api/v1/intelligence/models/${model._id}/predict`);
  });
});
