import { type Dataset, type Model, seeded } from '@dataplatform/contract';
import { describe, expect, it } from 'vitest';
import { newJobRecord } from '../src/services/job-runner.js';
import { openStorage } from '../src/storage/index.js';
import type { JobRecord } from '../src/storage/jobs.js';
import { crashServer } from './crash-server.js';
import { availableEngines } from './helpers.js';

/** Rows of the collection the dataset copies and the model trains on. */
const ROWS = 5000;

describe.each(availableEngines())('intelligence jobs across SIGKILL on %s', (engine) => {
  it('builds a dataset and trains a model again after a restart when a SIGKILL cut them short', async () => {
    const server = await crashServer(engine, 'dataplatform-intelligence-crash-');
    const { call, apiKey } = server;
    try {
      const data = (path: string, body: unknown) =>
        fetch(`${server.url}/api/v1/data${path}`, {
          method: 'POST',
          headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const ended = (jobId: string) => server.ended(jobId, 120_000);

      // Two numbers and a label that depends on them.
      const random = seeded(11);
      for (let from = 0; from < ROWS; from += 1000) {
        const operations = Array.from({ length: 1000 }, (_, i) => {
          const [a, b] = [random() * 10, random() * 10];
          const doc = { _id: `r${String(from + i).padStart(6, '0')}`, a, b, big: a + b > 10 };
          return { op: 'insert', collection: 'crash', data: doc };
        });
        expect((await data('/batch', { operations })).status).toBe(200);
      }
      const first = await call('POST', '/api/intelligence/datasets', { name: 'first', collection: 'crash' });
      expect(first.status).toBe(202);
      const trainedOn = first.body as unknown as Dataset;
      await ended(trainedOn._id.replace(/^ds_/, 'job_'));

      // SIGKILL, and then what a kill in the middle of a build and of a training leaves behind, written while the
      // server is down: neither saves anything before its end (the rows, the fitted model and the status are
      // written last), so a dataset `building` and a model `training` with their jobs `running`, last saved a
      // minute ago (so that PostgreSQL's instance takes them as stale at once). Made this way rather than by
      // killing at the right moment, which a fast build or training makes a race.
      await server.kill();
      const storage = await openStorage({
        dataDir: server.dataDir,
        databaseUrl: server.databaseUrl,
        databasePoolSize: 2,
        sqliteSynchronous: 'NORMAL',
      });
      const before = new Date(Date.now() - 60_000).toISOString();
      const { clusterId } = trainedOn;
      const building: Dataset = {
        ...trainedOn,
        _id: 'ds_crash',
        name: 'killed',
        status: 'building',
        rowCount: 0,
        fields: [],
        completedAt: null,
      };
      const training: Model = {
        _id: 'mdl_crash',
        clusterId,
        name: 'killed',
        datasetId: trainedOn._id,
        status: 'training',
        task: 'classification',
        algorithm: 'logistic',
        target: 'big',
        features: ['a', 'b'],
        params: { seed: 1 },
        testFraction: 0.2,
        metrics: {},
        featureImportance: null,
        imputation: {},
        classes: null,
        trainRows: 0,
        testRows: 0,
        failure: null,
        createdAt: before,
        completedAt: null,
      };
      const stale = (job: JobRecord) => ({ ...job, createdAt: before, startedAt: before, updatedAt: before });
      try {
        await storage.intelligence.createDataset(building);
        await storage.jobs.create(
          stale(
            newJobRecord('dataset.build', 'job_crash_build', clusterId, {
              datasetId: 'ds_crash',
              fields: null,
            }),
          ),
        );
        await storage.intelligence.createModel(training);
        await storage.jobs.create(
          stale(newJobRecord('model.train', 'job_crash_train', clusterId, { modelId: 'mdl_crash' })),
        );
      } finally {
        await storage.close();
      }
      await server.restart();

      // The build is done again from the start: every row once.
      expect(await ended('job_crash_build')).toMatchObject({ status: 'succeeded', failure: null });
      expect((await call('GET', '/api/intelligence/datasets/ds_crash')).body).toMatchObject({
        status: 'ready',
        rowCount: ROWS,
      });
      const rows = await call('GET', '/api/intelligence/datasets/ds_crash/rows?limit=1');
      expect(rows.body.total).toBe(ROWS);

      // The training is done again on its thread, and the model predicts.
      expect(await ended('job_crash_train')).toMatchObject({ status: 'succeeded', failure: null });
      const model = (await call('GET', '/api/intelligence/models/mdl_crash')).body;
      expect(model).toMatchObject({ status: 'ready', trainRows: ROWS * 0.8, testRows: ROWS * 0.2 });
      expect((model.metrics as { accuracy: number }).accuracy).toBeGreaterThan(0.95);
      const predicted = await call('POST', '/api/intelligence/models/mdl_crash/predict', {
        rows: [{ a: 9, b: 9 }],
      });
      expect(predicted.body.predictions).toEqual([true]);
    } finally {
      await server.close();
    }
  }, 400_000);
});
