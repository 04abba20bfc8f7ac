import {
  type ClusterAction,
  checkClusterAccess,
  clusterNotFound,
  MAX_INDEXES_PER_COLLECTION,
  VALIDATOR_SCHEMA_LIMIT,
  type ValidationLevel,
} from '@dataplatform/contract';
import { ApiError } from '../http/errors.js';
import { rejectViolation } from '../http/validate.js';
import type { JobRecord } from '../storage/jobs.js';
import type { IndexRow, ValidatorRow } from '../storage/schema.js';
import type { Storage } from '../storage/types.js';
import { nextId } from './document-operations.js';
import { newJobRecord } from './job-runner.js';
import { publicJob } from './jobs.js';
import { compileSchema, type SchemaGuards } from './schema-guards.js';
import { inferSchema } from './schema-infer.js';
import type { SchemaJobs } from './schema-jobs.js';

/** The most documents a drop removes before it answers; a larger collection is dropped in the background. */
const DROP_AT_ONCE = 10_000;

/** A validator as the API answers it. */
function validatorOf(row: ValidatorRow) {
  return {
    collection: row.collection,
    schema: JSON.parse(row.schema) as Record<string, unknown>,
    level: row.level,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** An index as the API answers it. */
function indexAnswer(row: IndexRow) {
  return {
    name: row.name,
    fields: row.fields,
    unique: row.unique,
    status: row.status,
    createdAt: row.createdAt,
  };
}

/** The name of an index the request left unnamed: its fields and orders, e.g. `address_city_asc`. */
function defaultIndexName(fields: readonly { path: string; order: string }[]): string {
  const name = fields.map((field) => `${field.path.replace(/\./g, '_')}_${field.order}`).join('_');
  return (/^[A-Za-z]/.test(name) ? name : `i${name}`).slice(0, 40);
}

/** Who calls a dashboard schema route: a signed-in user, on a cluster they name or their default one. */
export interface SchemaCaller {
  sessionId: string;
  userId: string;
  clusterId: string | undefined;
}

/** Validators of collections and the collection list, for the dashboard (`/api/schema`) and keys (`/api/v1/schema`). */
export class SchemaService {
  constructor(
    private readonly storage: Storage,
    private readonly guards: SchemaGuards,
    private readonly jobs: SchemaJobs,
  ) {}

  /**
   * The cluster a session acts on, when the user's role there allows `action`: the one named, else the default;
   * 404 `not_found` when the user is no member of it, 403 `forbidden` when the role does not allow it.
   */
  async clusterOf(caller: SchemaCaller, action: ClusterAction): Promise<string> {
    const session = await this.storage.sessions.findForData(caller.sessionId, caller.clusterId ?? null);
    const cluster = session?.cluster;
    if (!cluster || cluster.status === 'deleting' || cluster.status === 'deleted')
      rejectViolation(clusterNotFound(caller.clusterId ?? 'default'));
    rejectViolation(checkClusterAccess(cluster!.role, action));
    return cluster!.id;
  }

  async collections(clusterId: string) {
    const [stats, validators, allIndexes] = await Promise.all([
      this.storage.schema.collections(clusterId),
      this.storage.schema.listValidators(clusterId),
      this.storage.schema.listIndexes(clusterId),
    ]);
    const indexes = new Map<string, IndexRow[]>();
    for (const index of allIndexes)
      indexes.set(index.collection, [...(indexes.get(index.collection) ?? []), index]);
    const byName = new Map(validators.map((row) => [row.collection, row]));
    // A collection whose documents are all gone (deleted, or dropped) is listed only while it has a validator or
    // an index.
    const written = stats.filter((s) => Number(s.documentCount) > 0).map((s) => s.name);
    const names = new Set([...written, ...byName.keys(), ...indexes.keys()]);
    const sizes = new Map(stats.map((s) => [s.name, s]));
    const data = [...names].sort().map((name) => {
      const validator = byName.get(name);
      return {
        name,
        documentCount: Number(sizes.get(name)?.documentCount ?? 0),
        storageBytes: Number(sizes.get(name)?.storageBytes ?? 0),
        validation: validator
          ? { level: validator.level, schema: JSON.parse(validator.schema) as Record<string, unknown> }
          : null,
        indexes: (indexes.get(name) ?? []).map(indexAnswer),
      };
    });
    return { data };
  }

  /**
   * Drops a collection as a `collection.drop` job: its validator and indexes at once, then every document last
   * written before it started, then its events. A collection of up to `DROP_AT_ONCE` documents is dropped before
   * the answer (the job answered finished); a larger one in the background. 404 when there is nothing to drop.
   */
  async dropCollection(clusterId: string, collection: string) {
    const [validator, indexes, some] = await Promise.all([
      this.storage.schema.getValidator(clusterId, collection),
      this.storage.schema.listIndexes(clusterId, collection),
      this.storage.schema.documentsAfter(clusterId, collection, '', 1),
    ]);
    if (!validator && indexes.length === 0 && some.length === 0)
      throw new ApiError('not_found', `Collection "${collection}" not found`, { collection });
    const total = await this.documentCount(clusterId, collection);
    const job = newJobRecord('collection.drop', `job_${nextId()}`, clusterId, { collection }, total);
    await this.storage.jobs.create(job);
    await this.jobs.dropSchema(clusterId, collection);
    const run = this.jobs.start(job);
    if (total > DROP_AT_ONCE) return publicJob(job);
    await run;
    return publicJob((await this.storage.jobs.find(job.id)) ?? job);
  }

  /** Starts a `validator.check` job over the collection's stored documents; 404 when it has no validator. */
  async checkValidator(clusterId: string, collection: string) {
    if (!(await this.storage.schema.getValidator(clusterId, collection))) throw noValidator(collection);
    const job = newJobRecord(
      'validator.check',
      `job_${nextId()}`,
      clusterId,
      { collection },
      await this.documentCount(clusterId, collection),
    );
    await this.storage.jobs.create(job);
    void this.jobs.start(job);
    return publicJob(job);
  }

  /** A schema the newest `sample` documents of the collection all match. */
  async infer(clusterId: string, collection: string, sample: number) {
    const { rows } = await this.storage.documents.list(
      { clusterId, collection },
      { limit: sample, skip: 0, sort: [{ path: ['_createdAt'], descending: true }] },
    );
    const documents = rows.map((row) => JSON.parse(row.data) as Record<string, unknown>);
    return { collection, sampled: documents.length, schema: inferSchema(documents) };
  }

  private async documentCount(clusterId: string, collection: string): Promise<number> {
    const { total } = await this.storage.documents.list(
      { clusterId, collection },
      { limit: 1, skip: 0, sort: [] },
    );
    return total;
  }

  async listIndexes(clusterId: string, collection: string) {
    return { data: (await this.storage.schema.listIndexes(clusterId, collection)).map(indexAnswer) };
  }

  /**
   * Builds an index as an `index.build` job and answers it finished: 202 either way, `failed` with the reason
   * (say, documents that already share the values of a unique index) and nothing left behind.
   */
  async createIndex(
    clusterId: string,
    collection: string,
    input: { name?: string; fields: { path: string; order: 'asc' | 'desc' }[]; unique: boolean },
  ) {
    const name = input.name ?? defaultIndexName(input.fields);
    const paths = input.fields.map((field) => field.path);
    if (new Set(paths).size !== paths.length)
      throw new ApiError('validation_error', 'An index names each field once', {
        in: 'body',
        field: 'fields',
      });
    const existing = await this.storage.schema.listIndexes(clusterId, collection);
    if (existing.some((index) => index.name === name)) throw indexTaken(collection, name);
    if (existing.length >= MAX_INDEXES_PER_COLLECTION) throw tooMany(collection);
    const now = new Date().toISOString();
    const job: JobRecord = {
      id: `job_${nextId()}`,
      kind: 'index.build',
      status: 'running',
      clusterId,
      input: { collection, name, fields: input.fields, unique: input.unique },
      counts: { rows: 0, inserted: 0, failed: 0 },
      bytes: 0,
      errors: [],
      failure: null,
      createdAt: now,
      startedAt: now,
      updatedAt: now,
      finishedAt: null,
    };
    await this.storage.jobs.create(job);
    const build = await this.storage.schema.createIndex(
      { clusterId, collection, name, fields: input.fields, unique: input.unique, createdAt: now },
      MAX_INDEXES_PER_COLLECTION,
    );
    if (!build.ok && build.reason === 'taken') throw await this.abandon(job, indexTaken(collection, name));
    if (!build.ok && build.reason === 'too_many') throw await this.abandon(job, tooMany(collection));
    if (!build.ok && build.reason === 'too_large')
      throw await this.abandon(
        job,
        new ApiError(
          'validation_error',
          "The index's fields and paths are too long for the storage engine: use fewer fields or shorter paths",
          { in: 'body', field: 'fields' },
        ),
      );
    const finished = new Date().toISOString();
    const done: JobRecord = build.ok
      ? { ...job, status: 'succeeded', updatedAt: finished, finishedAt: finished }
      : {
          ...job,
          status: 'failed',
          failure: {
            code: 'unique_violation',
            message: `Documents of "${collection}" already share values of ${paths.join(', ')}, e.g. ${JSON.stringify(
              build.examples,
            )}: the unique index was not built`,
          },
          updatedAt: finished,
          finishedAt: finished,
        };
    await this.storage.jobs.save(done);
    return publicJob((await this.storage.jobs.find(job.id)) ?? done);
  }

  async dropIndex(clusterId: string, collection: string, name: string) {
    if (!(await this.storage.schema.dropIndex(clusterId, collection, name)))
      throw new ApiError('not_found', `Collection "${collection}" has no index "${name}"`, {
        collection,
        name,
      });
    return { _id: name, deleted: true as const };
  }

  /**
   * At start, on SQLite (one server per database): a build that a stop cut short is failed with its reason and
   * its half-made index removed, so no job stays `running`. On PostgreSQL another instance may still be building,
   * so its jobs are left as they are.
   */
  async failInterruptedBuilds(): Promise<void> {
    if (this.storage.engine !== 'sqlite') return;
    for (const job of await this.storage.jobs.unfinished('index.build')) {
      const { collection, name } = job.input as { collection: string; name: string };
      const index = (await this.storage.schema.listIndexes(job.clusterId, collection)).find(
        (row) => row.name === name,
      );
      if (index?.status === 'building') await this.storage.schema.dropIndex(job.clusterId, collection, name);
      const now = new Date().toISOString();
      await this.storage.jobs.save({
        ...job,
        status: 'failed',
        failure: {
          code: 'interrupted',
          message: 'The server stopped during the build; nothing was kept: create the index again',
        },
        updatedAt: now,
        finishedAt: now,
      });
    }
  }

  /** Ends a build job that lost a race (another build took the name or the last place) with the refusal. */
  private async abandon(job: JobRecord, error: ApiError): Promise<ApiError> {
    const now = new Date().toISOString();
    await this.storage.jobs.save({
      ...job,
      status: 'failed',
      failure: { code: error.code, message: error.message },
      updatedAt: now,
      finishedAt: now,
    });
    return error;
  }

  async getValidator(clusterId: string, collection: string) {
    const row = await this.storage.schema.getValidator(clusterId, collection);
    if (!row) throw noValidator(collection);
    return validatorOf(row);
  }

  async putValidator(
    clusterId: string,
    collection: string,
    input: { schema: Record<string, unknown>; level: ValidationLevel },
  ) {
    const text = JSON.stringify(input.schema);
    if (Buffer.byteLength(text) > VALIDATOR_SCHEMA_LIMIT)
      throw new ApiError(
        'validation_error',
        `A validator's schema may have at most ${VALIDATOR_SCHEMA_LIMIT} bytes`,
        {
          in: 'body',
          field: 'schema',
        },
      );
    // Refuses a schema that is not valid JSON Schema 2020-12 before anything is stored.
    await compileSchema(input.schema);
    const now = new Date().toISOString();
    const row = await this.storage.schema.putValidator({
      clusterId,
      collection,
      schema: text,
      level: input.level,
      createdAt: now,
      updatedAt: now,
    });
    this.guards.forget(clusterId, collection);
    return validatorOf(row);
  }

  async deleteValidator(clusterId: string, collection: string) {
    const removed = await this.storage.schema.deleteValidator(clusterId, collection);
    this.guards.forget(clusterId, collection);
    if (!removed) throw noValidator(collection);
    return { collection, deleted: true as const };
  }
}

function indexTaken(collection: string, name: string): ApiError {
  return new ApiError('conflict', `Collection "${collection}" already has an index "${name}"`, {
    collection,
    name,
  });
}

function tooMany(collection: string): ApiError {
  return new ApiError(
    'validation_error',
    `Collection "${collection}" has ${MAX_INDEXES_PER_COLLECTION} indexes, the most a collection may have`,
    { in: 'body', field: 'fields', limit: MAX_INDEXES_PER_COLLECTION },
  );
}

function noValidator(collection: string): ApiError {
  return new ApiError('not_found', `Collection "${collection}" has no validator`, { collection });
}
