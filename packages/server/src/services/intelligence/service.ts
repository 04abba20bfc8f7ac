import {
  type BatchPredictionCreate,
  type ClusterAction,
  checkModel,
  type Dataset,
  type DatasetCreate,
  type Model,
  type ModelCreate,
  type PredictRequest,
} from '@dataplatform/contract';
import type { z } from 'zod';
import { ApiError } from '../../http/errors.js';
import { rejectViolation } from '../../http/validate.js';
import type { JobRecord } from '../../storage/jobs.js';
import type { Storage } from '../../storage/types.js';
import { sessionCluster } from '../cluster-access.js';
import { nextId } from '../document-operations.js';
import { newJobRecord } from '../job-runner.js';
import { publicJob } from '../jobs.js';
import type { IntelligenceJobs } from './jobs.js';
import type { Predictors } from './predictors.js';
import { parseSource } from './source-rows.js';

/** Who calls a dashboard route: a signed-in user. */
export interface IntelligenceCaller {
  sessionId: string;
  userId: string;
}

/** Work on up to this many rows is done before the answer; more in the background. */
const AT_ONCE = 10_000;

const datasetNotFound = (id: string) => new ApiError('not_found', `Dataset "${id}" not found`);
const modelNotFound = (id: string) => new ApiError('not_found', `Model "${id}" not found`);

/** Datasets, models and predictions (`/api/intelligence`, `/api/v1/intelligence`). */
export class IntelligenceService {
  constructor(
    private readonly storage: Storage,
    private readonly jobs: IntelligenceJobs,
    private readonly predictors: Predictors,
  ) {}

  /** The record's cluster when the caller's role there allows `action`; a cluster they are no member of is `gone`. */
  private async access(caller: IntelligenceCaller, clusterId: string, action: ClusterAction, gone: ApiError) {
    try {
      await sessionCluster(this.storage, caller.sessionId, clusterId, action);
    } catch (error) {
      throw error instanceof ApiError && error.code === 'not_found' ? gone : error;
    }
  }

  private async dataset(caller: IntelligenceCaller, id: string, action: ClusterAction): Promise<Dataset> {
    const dataset = await this.storage.intelligence.findDataset(id);
    if (!dataset) throw datasetNotFound(id);
    await this.access(caller, dataset.clusterId, action, datasetNotFound(id));
    return dataset;
  }

  private async model(caller: IntelligenceCaller, id: string, action: ClusterAction): Promise<Model> {
    const stored = await this.storage.intelligence.findModel(id);
    if (!stored) throw modelNotFound(id);
    await this.access(caller, stored.model.clusterId, action, modelNotFound(id));
    return stored.model;
  }

  /** Starts a job; waits for it when its source is small. */
  private async run(job: JobRecord, rows: number): Promise<void> {
    await this.storage.jobs.create(job);
    const running = this.jobs.start(job);
    if (rows <= AT_ONCE) await running;
  }

  private async collectionSize(clusterId: string, collection: string): Promise<number> {
    const found = (await this.storage.schema.collections(clusterId)).find((c) => c.name === collection);
    return Number(found?.documentCount ?? 0);
  }

  async createDataset(caller: IntelligenceCaller, body: z.output<typeof DatasetCreate>) {
    const clusterId = await sessionCluster(this.storage, caller.sessionId, body.clusterId, 'intelligence');
    if (body.sql !== undefined) await parseSource(body.collection, body.sql);
    const suffix = nextId();
    const dataset: Dataset = {
      _id: `ds_${suffix}`,
      clusterId,
      name: body.name,
      collection: body.collection,
      sql: body.sql ?? null,
      status: 'building',
      rowCount: 0,
      truncated: false,
      fields: [],
      failure: null,
      createdAt: new Date().toISOString(),
      completedAt: null,
    };
    await this.storage.intelligence.createDataset(dataset);
    const input = { datasetId: dataset._id, fields: body.fields ?? null };
    await this.run(
      newJobRecord('dataset.build', `job_${suffix}`, clusterId, input),
      await this.collectionSize(clusterId, body.collection),
    );
    return (await this.storage.intelligence.findDataset(dataset._id)) ?? dataset;
  }

  async listDatasets(caller: IntelligenceCaller, clusterId: string | undefined) {
    const cluster = await sessionCluster(this.storage, caller.sessionId, clusterId, 'read');
    return { data: await this.storage.intelligence.listDatasets(cluster) };
  }

  getDataset(caller: IntelligenceCaller, id: string) {
    return this.dataset(caller, id, 'read');
  }

  async datasetRows(caller: IntelligenceCaller, id: string, page: { limit: number; skip: number }) {
    const dataset = await this.dataset(caller, id, 'read');
    if (dataset.status !== 'ready')
      throw new ApiError('conflict', `Dataset "${id}" is ${dataset.status}: it has no rows to read yet`);
    // Past the last row there is nothing to read (and a skip past 2^31 is more than a row number can hold).
    const rows =
      page.skip >= dataset.rowCount ? [] : await this.storage.intelligence.rows(id, page.skip, page.limit);
    return { data: rows.map((text) => JSON.parse(text) as object), total: dataset.rowCount, ...page };
  }

  async deleteDataset(caller: IntelligenceCaller, id: string) {
    await this.dataset(caller, id, 'intelligence');
    if (!(await this.storage.intelligence.deleteDataset(id))) throw datasetNotFound(id);
    return { _id: id, deleted: true as const };
  }

  /** Checks the body against the dataset, stores the model `training` and starts its job. */
  private async train(clusterId: string, dataset: Dataset, body: z.output<typeof ModelCreate>) {
    const checked = checkModel(body, dataset);
    if ('violation' in checked) rejectViolation(checked.violation);
    const { algorithm, target, features } = checked as Exclude<typeof checked, { violation: unknown }>;
    const suffix = nextId();
    const model: Model = {
      _id: `mdl_${suffix}`,
      clusterId,
      name: body.name,
      datasetId: dataset._id,
      status: 'training',
      task: body.task,
      algorithm,
      target,
      features,
      params: { seed: 1, ...body.params },
      testFraction: body.testFraction ?? 0.2,
      metrics: {},
      featureImportance: null,
      imputation: {},
      classes: null,
      trainRows: 0,
      testRows: 0,
      failure: null,
      createdAt: new Date().toISOString(),
      completedAt: null,
    };
    await this.storage.intelligence.createModel(model);
    await this.run(
      newJobRecord('model.train', `job_${suffix}`, clusterId, { modelId: model._id }),
      dataset.rowCount,
    );
    return (await this.storage.intelligence.findModel(model._id))?.model ?? model;
  }

  async createModel(caller: IntelligenceCaller, body: z.output<typeof ModelCreate> & { clusterId?: string }) {
    const clusterId = await sessionCluster(this.storage, caller.sessionId, body.clusterId, 'intelligence');
    const dataset = await this.storage.intelligence.findDataset(body.datasetId);
    if (dataset?.clusterId !== clusterId) throw datasetNotFound(body.datasetId);
    const { clusterId: _, ...rest } = body;
    return this.train(clusterId, dataset, rest);
  }

  /** Training with an API key (`experiment:write`): a dataset of the key's cluster. */
  async trainByKey(clusterId: string, body: z.output<typeof ModelCreate>) {
    const dataset = await this.storage.intelligence.findDataset(body.datasetId);
    if (dataset?.clusterId !== clusterId) throw datasetNotFound(body.datasetId);
    return this.train(clusterId, dataset, body);
  }

  async listModels(caller: IntelligenceCaller, clusterId: string | undefined) {
    const cluster = await sessionCluster(this.storage, caller.sessionId, clusterId, 'read');
    return { data: await this.storage.intelligence.listModels(cluster) };
  }

  getModel(caller: IntelligenceCaller, id: string) {
    return this.model(caller, id, 'read');
  }

  async deleteModel(caller: IntelligenceCaller, id: string) {
    await this.model(caller, id, 'intelligence');
    if (!(await this.storage.intelligence.deleteModel(id))) throw modelNotFound(id);
    this.predictors.forget(id);
    return { _id: id, deleted: true as const };
  }

  private async predictWith(model: Model, body: z.output<typeof PredictRequest>) {
    const predictor = model.status === 'ready' ? await this.predictors.of(model._id) : null;
    if (!predictor)
      throw new ApiError('conflict', `Model "${model._id}" is ${model.status}: it cannot predict`);
    return predictor.predict(body.rows);
  }

  async predict(caller: IntelligenceCaller, id: string, body: z.output<typeof PredictRequest>) {
    return this.predictWith(await this.model(caller, id, 'read'), body);
  }

  /** Predicting with an API key (`query:execute`): a model of the key's cluster. */
  async predictByKey(clusterId: string, id: string, body: z.output<typeof PredictRequest>) {
    const stored = await this.storage.intelligence.findModel(id);
    if (stored?.model.clusterId !== clusterId) throw modelNotFound(id);
    return this.predictWith(stored.model, body);
  }

  async createPredictions(caller: IntelligenceCaller, body: z.output<typeof BatchPredictionCreate>) {
    const model = await this.model(caller, body.modelId, 'intelligence');
    if (model.status !== 'ready')
      throw new ApiError('conflict', `Model "${model._id}" is ${model.status}: it cannot predict`);
    if (body.sql !== undefined) await parseSource(body.collection, body.sql);
    const input = {
      modelId: model._id,
      collection: body.collection,
      sql: body.sql ?? null,
      outputCollection: body.outputCollection,
    };
    const job = newJobRecord('prediction.batch', `job_${nextId()}`, model.clusterId, input);
    await this.run(job, await this.collectionSize(model.clusterId, body.collection));
    return publicJob((await this.storage.jobs.find(job.id)) ?? job);
  }
}
