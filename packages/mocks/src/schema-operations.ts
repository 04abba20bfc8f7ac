import {
  checkClusterAccess,
  clusterNotFound,
  type indexRoutes,
  type Job,
  MAX_INDEXES_PER_COLLECTION,
  type schemaKeyRoutes,
  type schemaRoutes,
  VALIDATOR_CHECK_SAMPLES,
} from '@dataplatform/contract';
import { ApiError } from './answers.js';
import { planOf } from './clusters.js';
import type { Operation } from './document-operations.js';
import { type DocumentStore, ownFields } from './document-store.js';
import { randomToken } from './ids.js';
import type { OperationInput } from './request-input.js';
import { checkShape, inferShape, schemaProblem } from './schema-shapes.js';

type RouteId =
  | (typeof schemaRoutes)[number]['id']
  | (typeof indexRoutes)[number]['id']
  | (typeof schemaKeyRoutes)[number]['id'];

interface MockValidator {
  collection: string;
  schema: Record<string, unknown>;
  level: 'strict' | 'off';
  createdAt: string;
  updatedAt: string;
}

interface MockIndex {
  name: string;
  fields: { path: string; order: 'asc' | 'desc' }[];
  unique: boolean;
  status: 'ready';
  createdAt: string;
}

interface SchemaState {
  validators: Map<string, MockValidator>;
  indexes: Map<string, Map<string, MockIndex>>;
}

/**
 * Validators and indexes of the mocks, kept beside the document store they describe (one for every cluster, as the
 * documents are). The mocks store and list them but do not enforce them: writes are not checked against a JSON
 * Schema, and indexes make nothing unique. A validator check uses a tiny structural check (`schema-shapes.ts`).
 */
const states = new WeakMap<DocumentStore, SchemaState>();

function stateOf(store: DocumentStore): SchemaState {
  let state = states.get(store);
  if (!state) {
    state = { validators: new Map(), indexes: new Map() };
    states.set(store, state);
  }
  return state;
}

/** Forgets every validator and index kept beside `store` (a reset of the mocks). */
export function forgetSchemas(store: DocumentStore): void {
  states.delete(store);
}

function indexesOf(store: DocumentStore, collection: string): Map<string, MockIndex> {
  const state = stateOf(store);
  let indexes = state.indexes.get(collection);
  if (!indexes) {
    indexes = new Map();
    state.indexes.set(collection, indexes);
  }
  return indexes;
}

function collections(store: DocumentStore) {
  const state = stateOf(store);
  const contents = store.snapshot();
  const names = new Set([...contents.keys(), ...state.validators.keys(), ...state.indexes.keys()]);
  const data = [...names].sort().map((name) => {
    const documents = [...(contents.get(name)?.values() ?? [])];
    const validator = state.validators.get(name);
    return {
      name,
      documentCount: documents.length,
      storageBytes: documents.reduce((sum, document) => sum + JSON.stringify(document).length, 0),
      validation: validator ? { level: validator.level, schema: validator.schema } : null,
      indexes: [...(state.indexes.get(name)?.values() ?? [])],
    };
  });
  return { data: data.filter((c) => c.documentCount > 0 || c.validation || c.indexes.length > 0) };
}

function getValidator(store: DocumentStore, collection: string): MockValidator {
  const validator = stateOf(store).validators.get(collection);
  if (!validator)
    throw new ApiError('not_found', `Collection "${collection}" has no validator`, { collection });
  return validator;
}

function listIndexes(store: DocumentStore, collection: string) {
  return { data: [...indexesOf(store, collection).values()].sort((a, b) => (a.name < b.name ? -1 : 1)) };
}

/**
 * The cluster a schema route acts on: a session's `clusterId` (else their default cluster), 404 when they are no
 * member, 403 when their role may not change schemas; a key's owner's cluster.
 */
function clusterOfCall(input: OperationInput, write = false): string {
  const account = input.account;
  if (!account?.session) return 'cls_mock';
  const { userId } = account.session;
  const clusterId = (input.query.clusterId as string | undefined) ?? null;
  const membership = account.model.clusters.membership(
    userId,
    planOf(account.model.billing(userId)),
    clusterId,
  );
  if (!membership) throw ApiError.fromViolation(clusterNotFound(clusterId ?? 'default'));
  const violation = write ? checkClusterAccess(membership.role, 'schema') : null;
  if (violation) throw ApiError.fromViolation(violation);
  return membership.clusterId;
}

/** A finished job of the schema routes, kept in the ledger so that the jobs routes find it. */
function finishedJob(
  input: OperationInput,
  clusterId: string,
  fields: Pick<Job, 'kind' | 'input' | 'result'> & { done: number },
): Job {
  const now = new Date().toISOString();
  const job: Job = {
    _id: `job_${randomToken(12)}`,
    kind: fields.kind,
    status: 'succeeded',
    clusterId,
    input: fields.input,
    progress: { done: fields.done, total: fields.done },
    result: fields.result,
    counts: { rows: fields.done, inserted: 0, failed: 0 },
    bytes: 0,
    errors: [],
    failure: null,
    createdAt: now,
    startedAt: now,
    updatedAt: now,
    finishedAt: now,
  };
  input.jobs?.record(job, input.userId ?? null);
  return job;
}

/** The newest `sample` documents of a collection (ids sort by creation), as a proposal for its validator. */
function infer(input: OperationInput, store: DocumentStore) {
  const collection = input.params.collection!;
  const sample = (input.query.sample as number | undefined) ?? 100;
  const documents = store.list(collection).slice(-sample).map(ownFields);
  return { status: 200, body: { collection, sampled: documents.length, schema: inferShape(documents) } };
}

/** The behaviour of `/api/schema/*` and `/api/v1/schema/*` in the mocks (see `states`). */
export const schemaOperations: Record<RouteId, Operation> = {
  'schema.collections.list': (input, store) => {
    clusterOfCall(input);
    return { status: 200, body: collections(store) };
  },
  'data.schema.collections.list': (_input, store) => ({ status: 200, body: collections(store) }),
  'schema.collections.drop': (input, store) => {
    const clusterId = clusterOfCall(input, true);
    const collection = input.params.collection!;
    if (!collections(store).data.some((c) => c.name === collection))
      throw new ApiError('not_found', `Collection "${collection}" not found`, { collection });
    const removed = store.drop(collection);
    stateOf(store).validators.delete(collection);
    stateOf(store).indexes.delete(collection);
    const job = finishedJob(input, clusterId, {
      kind: 'collection.drop',
      input: { collection },
      result: null,
      done: removed,
    });
    return { status: 202, body: job };
  },
  'schema.validator.get': (input, store) => {
    clusterOfCall(input);
    return { status: 200, body: getValidator(store, input.params.collection!) };
  },
  'data.schema.validator.get': (input, store) => ({
    status: 200,
    body: getValidator(store, input.params.collection!),
  }),
  'schema.validator.put': (input, store) => {
    clusterOfCall(input, true);
    const collection = input.params.collection!;
    const { schema, level } = input.body as { schema: Record<string, unknown>; level: 'strict' | 'off' };
    const problem = schemaProblem(schema);
    if (problem)
      throw new ApiError('validation_error', `Invalid JSON Schema: ${problem}`, {
        in: 'body',
        field: 'schema',
      });
    const now = new Date().toISOString();
    const earlier = stateOf(store).validators.get(collection);
    const validator = { collection, schema, level, createdAt: earlier?.createdAt ?? now, updatedAt: now };
    stateOf(store).validators.set(collection, validator);
    return { status: 200, body: validator };
  },
  'schema.validator.delete': (input, store) => {
    clusterOfCall(input, true);
    const collection = input.params.collection!;
    getValidator(store, collection);
    stateOf(store).validators.delete(collection);
    return { status: 200, body: { collection, deleted: true } };
  },
  'schema.validator.check': (input, store) => {
    const clusterId = clusterOfCall(input, true);
    const collection = input.params.collection!;
    const { schema } = getValidator(store, collection);
    const documents = store.list(collection);
    const failures = documents
      .map((document) => ({ _id: document._id, errors: checkShape(ownFields(document), schema) }))
      .filter((failure) => failure.errors.length > 0);
    const result = {
      checked: documents.length,
      failing: failures.length,
      samples: failures.slice(0, VALIDATOR_CHECK_SAMPLES),
    };
    const job = finishedJob(input, clusterId, {
      kind: 'validator.check',
      input: { collection },
      result,
      done: documents.length,
    });
    return { status: 202, body: job };
  },
  'schema.infer': (input, store) => {
    clusterOfCall(input);
    return infer(input, store);
  },
  'data.schema.infer': infer,
  'schema.indexes.list': (input, store) => {
    clusterOfCall(input);
    return { status: 200, body: listIndexes(store, input.params.collection!) };
  },
  'data.schema.indexes.list': (input, store) => ({
    status: 200,
    body: listIndexes(store, input.params.collection!),
  }),
  'schema.indexes.create': (input, store) => {
    const clusterId = clusterOfCall(input, true);
    const collection = input.params.collection!;
    const body = input.body as { name?: string; fields: MockIndex['fields']; unique: boolean };
    const name =
      body.name ??
      body.fields
        .map((field) => `${field.path.replace(/\./g, '_')}_${field.order}`)
        .join('_')
        .slice(0, 40);
    const paths = body.fields.map((field) => field.path);
    if (new Set(paths).size !== paths.length)
      throw new ApiError('validation_error', 'An index names each field once', {
        in: 'body',
        field: 'fields',
      });
    const indexes = indexesOf(store, collection);
    if (indexes.has(name))
      throw new ApiError('conflict', `Collection "${collection}" already has an index "${name}"`, {
        collection,
        name,
      });
    if (indexes.size >= MAX_INDEXES_PER_COLLECTION)
      throw new ApiError(
        'validation_error',
        `Collection "${collection}" has ${MAX_INDEXES_PER_COLLECTION} indexes`,
        {
          in: 'body',
          field: 'fields',
        },
      );
    const now = new Date().toISOString();
    indexes.set(name, { name, fields: body.fields, unique: body.unique, status: 'ready', createdAt: now });
    const job = finishedJob(input, clusterId, {
      kind: 'index.build',
      input: { collection, name, fields: body.fields, unique: body.unique },
      result: null,
      done: store.list(collection).length,
    });
    return { status: 202, body: job };
  },
  'schema.indexes.delete': (input, store) => {
    clusterOfCall(input, true);
    const { collection, name } = input.params as { collection: string; name: string };
    if (!indexesOf(store, collection).delete(name))
      throw new ApiError('not_found', `Collection "${collection}" has no index "${name}"`, {
        collection,
        name,
      });
    return { status: 200, body: { _id: name, deleted: true } };
  },
};
