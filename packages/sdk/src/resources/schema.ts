import type {
  CollectionInfoList,
  IndexCreate,
  IndexList,
  InferredSchema,
  Job,
  Validator,
  ValidatorDeleted,
  ValidatorInput,
} from '../contract-types.js';
import type { APIPromise } from '../core/api-promise.js';
import { APIResource } from '../core/resource.js';
import type { Query, RequestOptions } from '../internal/request-options.js';
import { segment } from '../internal/utils.js';

/** Which cluster a schema call acts on. */
export interface SchemaClusterParams {
  /**
   * A cluster you are a member of (session token only); your default cluster when left out. An API key always
   * acts on its own cluster.
   */
  clusterId?: string;
}

/** Query of `client.schema.infer()`. */
export interface InferParams extends SchemaClusterParams {
  /** Documents to read, newest first, 1 to 1000 (default 100). */
  sample?: number;
}

function collectionPath(prefix: string, collection: string): string {
  return `${prefix}/collections/${segment(collection, 'collection name')}`;
}

function clusterQuery(params: SchemaClusterParams) {
  return params.clusterId === undefined ? undefined : { clusterId: params.clusterId };
}

/** The shared plumbing of the schema resources. */
abstract class SchemaResource extends APIResource {
  /**
   * The base of a read: the dashboard routes (`/api/schema`) for a session and whenever a cluster is named; the
   * read-only key routes (`/api/v1/schema`, `metadata:read`) for an API key or a robot's token.
   */
  protected readBase(params: SchemaClusterParams): string {
    if (params.clusterId !== undefined) return '/api/schema';
    const token = this._client.token;
    const sessionOnly = !this._client.apiKey && token !== undefined && !token.startsWith('svc_');
    return sessionOnly ? '/api/schema' : '/api/v1/schema';
  }

  protected read<T>(
    collection: string | null,
    suffix: string,
    params: SchemaClusterParams,
    options: RequestOptions | undefined,
    query: Query = {},
  ): APIPromise<T> {
    const prefix = this.readBase(params);
    const path = collection === null ? `${prefix}/collections` : collectionPath(prefix, collection) + suffix;
    const clusterId = prefix === '/api/schema' ? params.clusterId : undefined;
    return this._client.get(path, { ...options, query: { ...query, clusterId } });
  }
}

/** `/api/schema/collections`: the collections of a cluster, and dropping one. */
export class SchemaCollections extends SchemaResource {
  /**
   * Every collection that was ever written to, with its document count, size, validator and indexes.
   * @example const { data } = await client.schema.collections.list();
   */
  list(params: SchemaClusterParams = {}, options?: RequestOptions): APIPromise<CollectionInfoList> {
    return this.read(null, '', params, options);
  }

  /**
   * Drops a collection: its documents, validator and indexes. Answers the `collection.drop` job (202); the
   * collection is gone for readers and writers from then on. NotFoundError when there is no such collection.
   * @example await client.jobs.wait((await client.schema.collections.drop('scratch'))._id);
   */
  drop(collection: string, params: SchemaClusterParams = {}, options?: RequestOptions): APIPromise<Job> {
    return this._client.delete(collectionPath('/api/schema', collection), {
      ...options,
      query: clusterQuery(params),
    });
  }
}

/** `/api/schema/collections/{collection}/validator`: the JSON Schema writes are checked against. */
export class SchemaValidator extends SchemaResource {
  /** The collection's validator; NotFoundError when it has none. */
  get(collection: string, params: SchemaClusterParams = {}, options?: RequestOptions): APIPromise<Validator> {
    return this.read(collection, '/validator', params, options);
  }

  /**
   * Sets or replaces the validator (JSON Schema draft 2020-12). With `level: 'strict'` (the default) every write
   * whose document does not match is a BadRequestError with code `schema_violation`; an invalid schema is a
   * BadRequestError with code `validation_error`.
   * @example await client.schema.validator.put('users', { schema: { type: 'object', required: ['email'] } });
   */
  put(
    collection: string,
    body: ValidatorInput,
    params: SchemaClusterParams = {},
    options?: RequestOptions,
  ): APIPromise<Validator> {
    return this._client.put(`${collectionPath('/api/schema', collection)}/validator`, {
      ...options,
      body,
      query: clusterQuery(params),
    });
  }

  /** Removes the validator: writes are no longer checked. NotFoundError when there is none. */
  delete(
    collection: string,
    params: SchemaClusterParams = {},
    options?: RequestOptions,
  ): APIPromise<ValidatorDeleted> {
    return this._client.delete(`${collectionPath('/api/schema', collection)}/validator`, {
      ...options,
      query: clusterQuery(params),
    });
  }

  /**
   * Checks the stored documents against the validator. Answers the `validator.check` job (202); once it has
   * succeeded, its `result` counts the documents read and those that do not match, with the first ones and why.
   * NotFoundError when the collection has no validator.
   * @example
   * const job = await client.jobs.wait((await client.schema.validator.check('users'))._id);
   * if (job.result && 'failing' in job.result) console.log(job.result.failing);
   */
  check(collection: string, params: SchemaClusterParams = {}, options?: RequestOptions): APIPromise<Job> {
    return this._client.post(`${collectionPath('/api/schema', collection)}/validator/check`, {
      ...options,
      query: clusterQuery(params),
    });
  }
}

/** `/api/schema/collections/{collection}/indexes`: indexes the storage engine keeps. */
export class SchemaIndexes extends SchemaResource {
  /** The collection's indexes, by name. */
  list(
    collection: string,
    params: SchemaClusterParams = {},
    options?: RequestOptions,
  ): APIPromise<IndexList> {
    return this.read(collection, '/indexes', params, options);
  }

  /**
   * Builds an index and answers its `index.build` job, finished: `succeeded`, or `failed` with nothing left behind
   * (a unique index over documents that already share values). ConflictError when the name is taken.
   * @example await client.schema.indexes.create('users', { fields: [{ path: 'email' }], unique: true });
   */
  create(
    collection: string,
    body: IndexCreate,
    params: SchemaClusterParams = {},
    options?: RequestOptions,
  ): APIPromise<Job> {
    return this._client.post(`${collectionPath('/api/schema', collection)}/indexes`, {
      ...options,
      body,
      query: clusterQuery(params),
    });
  }

  /** Drops an index; NotFoundError when the collection has none of that name. */
  delete(
    collection: string,
    name: string,
    params: SchemaClusterParams = {},
    options?: RequestOptions,
  ): APIPromise<{ _id: string; deleted: true }> {
    const path = `${collectionPath('/api/schema', collection)}/indexes/${segment(name, 'index name')}`;
    return this._client.delete(path, { ...options, query: clusterQuery(params) });
  }
}

/**
 * Validators, indexes and the collections of a cluster: `/api/schema` with a session token, and read only
 * (`collections.list`, `validator.get`, `indexes.list`, `infer`) under `/api/v1/schema` with an API key holding
 * `metadata:read`.
 * @example
 * const { schema } = await client.schema.infer('orders');
 * await client.schema.validator.put('orders', { schema, level: 'strict' });
 */
export class Schema extends SchemaResource {
  /** `/api/schema/collections`. */
  readonly collections: SchemaCollections = new SchemaCollections(this._client);
  /** `/api/schema/collections/{collection}/validator`. */
  readonly validator: SchemaValidator = new SchemaValidator(this._client);
  /** `/api/schema/collections/{collection}/indexes`. */
  readonly indexes: SchemaIndexes = new SchemaIndexes(this._client);

  /**
   * Proposes a JSON Schema that the newest `sample` documents all match: the type of each field seen, and
   * `required` for the fields every one has. An empty collection gives `{ type: 'object' }` with `sampled: 0`.
   */
  infer(collection: string, params: InferParams = {}, options?: RequestOptions): APIPromise<InferredSchema> {
    const { sample, ...cluster } = params;
    return this.read(collection, '/infer', cluster, options, { sample });
  }
}
