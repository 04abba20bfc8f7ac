import {
  type Dataset,
  fieldNames,
  keepFields,
  MAX_DATASET_ROWS,
  type Model,
  recordRowError,
  summarize,
} from '@dataplatform/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { JobRecord } from '../../storage/jobs.js';
import type { Storage } from '../../storage/types.js';
import { JobRunner } from '../job-runner.js';
import type { SchemaGuards } from '../schema-guards.js';
import type { Params } from './algorithms.js';
import { predictionDocuments } from './prediction-documents.js';
import type { Predictors } from './predictors.js';
import { readSource } from './source-rows.js';
import { TrainingFailed, trainOffThread } from './trainer.js';

/** The kinds of job this runner does. */
const KINDS = ['dataset.build', 'model.train', 'prediction.batch'] as const;

/** Documents a batch prediction writes per transaction (and checks against the validator, read once per chunk). */
const WRITE_CHUNK = 500;

/** A failure the job records and the dataset or model shows, rather than an error of the server. */
class Refusal extends Error {}

/**
 * Runs the intelligence engine's jobs in the background: copying a dataset's rows, training a model on a thread of
 * its own, and writing a batch prediction. A starting server runs the jobs a stop left unfinished again from their
 * start (on PostgreSQL, those no instance saved for `STALE_JOB_MS`): a build copies again and replaces the rows, a
 * training trains again, a batch prediction writes again (documents written before keep their ids and are not
 * written twice).
 */
export class IntelligenceJobs extends JobRunner {
  constructor(
    storage: Storage,
    private readonly predictors: Predictors,
    private readonly guards: SchemaGuards,
    log: FastifyBaseLogger,
  ) {
    super(storage, log, KINDS);
  }

  protected work(job: JobRecord): Promise<void> {
    if (job.kind === 'dataset.build') return this.build(job);
    return job.kind === 'model.train' ? this.train(job) : this.predict(job);
  }

  /** A refusal (a deleted dataset, an algorithm's error) fails the job and shows on the dataset or model. */
  protected override async stopped(job: JobRecord, error: unknown): Promise<void> {
    const refused = error instanceof Refusal || error instanceof TrainingFailed;
    if (!refused) this.log.error({ err: error, jobId: job.id }, `${job.kind} job stopped`);
    const message = refused ? (error as Error).message : 'The job stopped on an error';
    await this.fail(job, message);
    await this.finish(job, { failure: { code: refused ? 'refused' : 'internal', message } });
  }

  private async build(job: JobRecord): Promise<void> {
    const dataset = await this.storage.intelligence.findDataset(job.input.datasetId as string);
    if (!dataset) throw new Refusal('The dataset was deleted');
    const { rows, truncated } = await readSource(
      this.storage,
      job.clusterId,
      dataset.collection,
      dataset.sql,
      MAX_DATASET_ROWS,
    );
    const wanted = job.input.fields as string[] | null;
    const fields = fieldNames(rows, wanted ?? undefined).map((name) => summarize(name, rows));
    const absent = wanted?.filter((name) => !rows.some((row) => row[name] !== undefined)) ?? [];
    if (absent.length > 0) throw new Refusal(`No row has the field(s) ${absent.join(', ')}`);
    await this.storage.intelligence.replaceRows(
      dataset._id,
      keepFields(rows, fields).map((r) => JSON.stringify(r)),
    );
    const ready: Dataset = {
      ...dataset,
      status: 'ready',
      rowCount: rows.length,
      truncated,
      fields,
      completedAt: new Date().toISOString(),
    };
    await this.storage.intelligence.updateDataset(ready);
    await this.finish(job, { progress: { done: rows.length, total: rows.length } });
  }

  private async train(job: JobRecord): Promise<void> {
    const stored = await this.storage.intelligence.findModel(job.input.modelId as string);
    if (!stored) throw new Refusal('The model was deleted');
    const { model } = stored;
    const dataset = await this.storage.intelligence.findDataset(model.datasetId);
    if (dataset?.status !== 'ready') throw new Refusal('The dataset was deleted');
    const rows = (await this.storage.intelligence.rows(dataset._id, 0, dataset.rowCount)).map(
      (text) => JSON.parse(text) as Record<string, unknown>,
    );
    const { artifact, ...result } = await trainOffThread({
      rows,
      fields: dataset.fields,
      task: model.task,
      algorithm: model.algorithm,
      target: model.target,
      features: model.features,
      params: model.params as unknown as Params,
      testFraction: model.testFraction,
    });
    const ready: Model = { ...model, ...result, status: 'ready', completedAt: new Date().toISOString() };
    await this.storage.intelligence.updateModel(ready, artifact);
    await this.finish(job, { progress: { done: rows.length, total: rows.length } });
  }

  private async predict(job: JobRecord): Promise<void> {
    const input = job.input as {
      modelId: string;
      collection: string;
      sql: string | null;
      outputCollection: string;
    };
    const predictor = await this.predictors.of(input.modelId);
    if (!predictor) throw new Refusal('The model was deleted');
    const { rows } = await readSource(
      this.storage,
      job.clusterId,
      input.collection,
      input.sql,
      MAX_DATASET_ROWS,
    );
    let written = 0;
    for (let start = 0; start < rows.length; start += WRITE_CHUNK) {
      const chunk = rows.slice(start, start + WRITE_CHUNK);
      // The output collection's strict validator, read once per chunk as an import does.
      const guard = await this.guards.of(job.clusterId, input.outputCollection);
      const { operations, refused } = predictionDocuments(
        chunk,
        predictor.predict(chunk),
        input.outputCollection,
        guard,
        start + 1,
      );
      await this.storage.documents.apply(job.clusterId, operations, { atomic: false });
      // A run again after a restart counts again from the start (a document written before is taken, not new).
      if (start === 0) Object.assign(job, { counts: { rows: 0, inserted: 0, failed: 0 }, errors: [] });
      for (const error of refused) recordRowError(job, error);
      written += chunk.length;
      job.counts.rows = written;
      job.counts.inserted += operations.length;
      if (this.closed || !(await this.save(job, { progress: { done: written, total: rows.length } }))) return;
    }
    await this.finish(job, { progress: { done: written, total: rows.length } });
  }

  /** The dataset or model of a job that failed shows why. */
  private async fail(job: JobRecord, message: string): Promise<void> {
    const now = new Date().toISOString();
    if (job.kind === 'dataset.build') {
      const dataset = await this.storage.intelligence.findDataset(job.input.datasetId as string);
      if (dataset)
        await this.storage.intelligence.updateDataset({
          ...dataset,
          status: 'failed',
          failure: message,
          completedAt: now,
        });
    } else if (job.kind === 'model.train') {
      const stored = await this.storage.intelligence.findModel(job.input.modelId as string);
      if (stored)
        await this.storage.intelligence.updateModel(
          { ...stored.model, status: 'failed', failure: message, completedAt: now },
          null,
        );
    }
  }
}
