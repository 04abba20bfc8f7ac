import {
  type indexRoutes,
  MAX_INDEXES_PER_COLLECTION,
  type schemaKeyRoutes,
  type schemaRoutes,
} from '@dataplatform/contract';
import { ApiError } from './answers.js';
import type { Operation } from './document-operations.js';
import type { DocumentStore } from './document-store.js';

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
 * Validators and indexes of the mocks, kept beside the document store they describe. The mocks store and list
 * them but do not enforce them: writes are not checked against a JSON Schema, and indexes make nothing unique.
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

let jobs = 0;

/** The behaviour of `/api/schema/*` and `/api/v1/schema/*` in the mocks (see `states`). */
export const schemaOperations: Record<RouteId, Operation> = {
  'schema.collections.list': (_input, store) => ({ status: 200, body: collections(store) }),
  'data.schema.collections.list': (_input, store) => ({ status: 200, body: collections(store) }),
  'schema.validator.get': (input, store) => ({
    status: 200,
    body: getValidator(store, input.params.collection!),
  }),
  'data.schema.validator.get': (input, store) => ({
    status: 200,
    body: getValidator(store, input.params.collection!),
  }),
  'schema.validator.put': (input, store) => {
    const collection = input.params.collection!;
    const { schema, level } = input.body as { schema: Record<string, unknown>; level: 'strict' | 'off' };
    const now = new Date().toISOString();
    const earlier = stateOf(store).validators.get(collection);
    const validator = { collection, schema, level, createdAt: earlier?.createdAt ?? now, updatedAt: now };
    stateOf(store).validators.set(collection, validator);
    return { status: 200, body: validator };
  },
  'schema.validator.delete': (input, store) => {
    const collection = input.params.collection!;
    getValidator(store, collection);
    stateOf(store).validators.delete(collection);
    return { status: 200, body: { collection, deleted: true } };
  },
  'schema.indexes.list': (input, store) => ({
    status: 200,
    body: listIndexes(store, input.params.collection!),
  }),
  'data.schema.indexes.list': (input, store) => ({
    status: 200,
    body: listIndexes(store, input.params.collection!),
  }),
  'schema.indexes.create': (input, store) => {
    const collection = input.params.collection!;
    const body = input.body as { name?: string; fields: MockIndex['fields']; unique: boolean };
    const name =
      body.name ??
      body.fields
        .map((field) => `${field.path.replace(/\./g, '_')}_${field.order}`)
        .join('_')
        .slice(0, 40);
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
    return {
      status: 202,
      body: {
        _id: `job_mock_index_${++jobs}`,
        kind: 'index.build',
        status: 'succeeded',
        clusterId: 'mock',
        input: { collection, name, fields: body.fields, unique: body.unique },
        counts: { rows: 0, inserted: 0, failed: 0 },
        bytes: 0,
        errors: [],
        failure: null,
        createdAt: now,
        startedAt: now,
        updatedAt: now,
        finishedAt: now,
      },
    };
  },
  'schema.indexes.delete': (input, store) => {
    const { collection, name } = input.params as { collection: string; name: string };
    if (!indexesOf(store, collection).delete(name))
      throw new ApiError('not_found', `Collection "${collection}" has no index "${name}"`, {
        collection,
        name,
      });
    return { status: 200, body: { _id: name, deleted: true } };
  },
};
