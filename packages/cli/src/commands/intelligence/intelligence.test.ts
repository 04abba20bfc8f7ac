import { describe, expect, it } from 'vitest';
import { parseArgs, runCli } from '../../../test/harness.js';
import { useMockApi } from '../../../test/mock-api.js';
import { newDatasetsCreateCommand } from './datasets.js';
import { newModelsTrainCommand } from './models.js';
import { newPredictCommand } from './predict.js';

describe('dp intelligence: arguments', () => {
  it('parses every verb', async () => {
    expect(
      await parseArgs(newDatasetsCreateCommand, ['iris', '-c', 'flowers', '--field', 'a', '--field', 'b']),
    ).toMatchObject({ ok: true, options: { name: 'iris', collection: 'flowers', fields: ['a', 'b'] } });
    expect(
      await parseArgs(newModelsTrainCommand, [
        'm',
        '-d',
        'ds_1',
        '-t',
        'regression',
        '--target',
        'y',
        '--seed',
        '7',
      ]),
    ).toMatchObject({
      ok: true,
      options: { name: 'm', datasetId: 'ds_1', task: 'regression', target: 'y', seed: 7 },
    });
    expect(await parseArgs(newPredictCommand, ['mdl_1', '{"a":1}'])).toMatchObject({
      options: { modelId: 'mdl_1', rows: '{"a":1}' },
    });
  });

  it.each([
    [newDatasetsCreateCommand, ['iris']],
    [newModelsTrainCommand, ['m', '-d', 'ds_1']],
    [newModelsTrainCommand, ['m', '-d', 'ds_1', '-t', 'guessing']],
    [newModelsTrainCommand, ['m', '-d', 'ds_1', '-t', 'regression', '--test-fraction', '0.9']],
    [newPredictCommand, []],
  ] as const)('refuses bad arguments with exit status 2 (%#)', async (make, argv) => {
    expect(await parseArgs(make as never, [...argv])).toMatchObject({ ok: false, code: 2 });
  });
});

describe('dp intelligence: run', () => {
  const api = useMockApi();

  const signedIn = async () => (await api.signUp()).env;

  it('makes a dataset, trains a model on it and predicts a row', async () => {
    api.mocks.store.seed(
      'points',
      Array.from({ length: 12 }, (_, i) => ({ _id: `p${i}`, x: i, y: 2 * i })),
    );
    const env = await signedIn();
    const made = await runCli(['intelligence', 'datasets', 'create', 'pts', '-c', 'points'], { env });
    expect(made.code, made.stderr).toBe(0);
    const dataset = JSON.parse(made.stdout) as { _id: string; rowCount: number };
    expect(dataset.rowCount).toBe(12);
    const trained = await runCli(
      ['intelligence', 'models', 'train', 'line', '-d', dataset._id, '-t', 'regression', '--target', 'y'],
      { env },
    );
    expect(trained.code, trained.stderr).toBe(0);
    const model = JSON.parse(trained.stdout) as { _id: string; status: string };
    expect(model.status).toBe('ready');
    const predicted = await runCli(['intelligence', 'predict', model._id, '{"x": 3}'], { env });
    expect(predicted.code, predicted.stderr).toBe(0);
    expect(JSON.parse(predicted.stdout)).toMatchObject({ predictions: [expect.any(Number)] });
    const listed = await runCli(['intelligence', 'models'], { env });
    expect(JSON.parse(listed.stdout.trim().split('\n')[0]!)).toMatchObject({ _id: model._id });
    expect(api.requests().filter((r) => r.includes('/api/intelligence'))).toEqual([
      'POST /api/intelligence/datasets',
      'POST /api/intelligence/models',
      `POST /api/intelligence/models/${model._id}/predict`,
      'GET /api/intelligence/models',
    ]);
  });

  it('names the operation when the model does not exist', async () => {
    const env = await signedIn();
    const missing = await runCli(['intelligence', 'predict', 'mdl_nope', '{"x":1}'], { env });
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain('predict with model "mdl_nope"');
  });
});
