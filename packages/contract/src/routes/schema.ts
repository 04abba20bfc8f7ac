import { Deleted } from '../schemas/common.js';
import { Job } from '../schemas/job.js';
import {
  CollectionInfoList,
  IndexCreate,
  IndexList,
  IndexParams,
  SchemaClusterQuery,
  SchemaCollectionParams,
  Validator,
  ValidatorDeleted,
  ValidatorInput,
} from '../schemas/schema.js';
import type { RouteDefinition } from './types.js';

const tag = 'schema';

const CLUSTER =
  "Acts on the cluster `clusterId` names, else the caller's default cluster; a cluster the caller is not a member of is 404 `not_found`.";
const WRITE_ROLE = 'Owners, admins and developers (403 `forbidden` for viewers).';
const LIST =
  "Every collection of the cluster that was ever written to, by name, with its document count, the bytes of its documents' JSON text, its validator and its indexes.";
const VALIDATOR_RULE =
  'With `level: "strict"` every write path (create, replace, patch on the merged document, batch, import) refuses a document that does not match: 400 `schema_violation` with `details.errors`, a list of `{ path, message }`, and nothing written. Documents stored before are not checked.';

/** Validators and the collection list of a cluster, under /api/schema. Session token only. */
export const schemaRoutes = [
  {
    id: 'schema.collections.list',
    method: 'GET',
    path: '/api/schema/collections',
    tag,
    summary: 'List collections',
    description: `${LIST} Any member may call it. ${CLUSTER}`,
    auth: 'session',
    scopes: [],
    query: SchemaClusterQuery,
    success: { status: 200, description: 'The collections', schema: CollectionInfoList },
    errors: ['not_found'],
  },
  {
    id: 'schema.validator.get',
    method: 'GET',
    path: '/api/schema/collections/{collection}/validator',
    tag,
    summary: "Get a collection's validator",
    description: `404 \`not_found\` when the collection has none. Any member may call it. ${CLUSTER}`,
    auth: 'session',
    scopes: [],
    params: SchemaCollectionParams,
    query: SchemaClusterQuery,
    success: { status: 200, description: 'The validator', schema: Validator },
    errors: ['not_found'],
  },
  {
    id: 'schema.validator.put',
    method: 'PUT',
    path: '/api/schema/collections/{collection}/validator',
    tag,
    summary: "Set a collection's validator",
    description: `Sets or replaces the collection's JSON Schema (draft 2020-12); a schema that is not valid JSON Schema is 400 \`validation_error\` with the validator library's message. ${VALIDATOR_RULE} ${WRITE_ROLE} ${CLUSTER}`,
    auth: 'session',
    scopes: [],
    params: SchemaCollectionParams,
    query: SchemaClusterQuery,
    body: ValidatorInput,
    success: { status: 200, description: 'The validator', schema: Validator },
    errors: ['validation_error', 'not_found', 'forbidden'],
  },
  {
    id: 'schema.validator.delete',
    method: 'DELETE',
    path: '/api/schema/collections/{collection}/validator',
    tag,
    summary: "Remove a collection's validator",
    description: `Writes are no longer checked. 404 \`not_found\` when the collection has none. ${WRITE_ROLE} ${CLUSTER}`,
    auth: 'session',
    scopes: [],
    params: SchemaCollectionParams,
    query: SchemaClusterQuery,
    success: { status: 200, description: 'The validator is gone', schema: ValidatorDeleted },
    errors: ['not_found', 'forbidden'],
  },
] as const satisfies readonly RouteDefinition[];

const INDEX_RULE = `An index is an index of the storage engine over the JSON path expressions of its fields (SQLite: an expression index over \`json_extract\`, PostgreSQL: over the jsonb path, built \`CONCURRENTLY\`), partial on the collection. With \`unique\`, a write that would give two documents the same values is 409 \`unique_violation\` with \`details: { index, fields }\`, and nothing is written; documents missing a field never collide. Equality filters (and numeric ranges) of the SQL helper on an indexed path are served by it.`;

/** Indexes of a collection, under /api/schema. Session token only. */
export const indexRoutes = [
  {
    id: 'schema.indexes.list',
    method: 'GET',
    path: '/api/schema/collections/{collection}/indexes',
    tag,
    summary: "List a collection's indexes",
    description: `Any member may call it. ${CLUSTER}`,
    auth: 'session',
    scopes: [],
    params: SchemaCollectionParams,
    query: SchemaClusterQuery,
    success: { status: 200, description: 'The indexes', schema: IndexList },
    errors: ['not_found'],
  },
  {
    id: 'schema.indexes.create',
    method: 'POST',
    path: '/api/schema/collections/{collection}/indexes',
    tag,
    summary: 'Create an index',
    description: `Answers 202 with the \`index.build\` job, finished: \`succeeded\` with the index ready, or \`failed\` with nothing left behind (a unique index over documents that already share values fails with \`unique_violation\`). A name already taken in the collection is 409 \`conflict\`; past 16 indexes in a collection, 400 \`validation_error\`. ${INDEX_RULE} ${WRITE_ROLE} ${CLUSTER}`,
    auth: 'session',
    scopes: [],
    params: SchemaCollectionParams,
    query: SchemaClusterQuery,
    body: IndexCreate,
    success: { status: 202, description: 'The build job, finished', schema: Job },
    errors: ['validation_error', 'not_found', 'forbidden', 'conflict'],
  },
  {
    id: 'schema.indexes.delete',
    method: 'DELETE',
    path: '/api/schema/collections/{collection}/indexes/{name}',
    tag,
    summary: 'Drop an index',
    description: `Drops the engine's index (PostgreSQL: \`CONCURRENTLY\`). 404 \`not_found\` when the collection has no index of that name. ${WRITE_ROLE} ${CLUSTER}`,
    auth: 'session',
    scopes: [],
    params: IndexParams,
    query: SchemaClusterQuery,
    success: { status: 200, description: 'The index is gone', schema: Deleted },
    errors: ['not_found', 'forbidden'],
  },
] as const satisfies readonly RouteDefinition[];

/** The same, read only, for API keys with `metadata:read` (or a session), under /api/v1/schema. */
export const schemaKeyRoutes = [
  {
    id: 'data.schema.collections.list',
    method: 'GET',
    path: '/api/v1/schema/collections',
    tag,
    summary: 'List collections (API key)',
    description: `${LIST} Acts on the key's cluster (a session: the default cluster or \`X-Cluster-Id\`).`,
    auth: 'data',
    scopes: ['metadata:read'],
    success: { status: 200, description: 'The collections', schema: CollectionInfoList },
    errors: [],
  },
  {
    id: 'data.schema.validator.get',
    method: 'GET',
    path: '/api/v1/schema/collections/{collection}/validator',
    tag,
    summary: "Get a collection's validator (API key)",
    description: "404 `not_found` when the collection has none. Acts on the key's cluster.",
    auth: 'data',
    scopes: ['metadata:read'],
    params: SchemaCollectionParams,
    success: { status: 200, description: 'The validator', schema: Validator },
    errors: ['not_found'],
  },
  {
    id: 'data.schema.indexes.list',
    method: 'GET',
    path: '/api/v1/schema/collections/{collection}/indexes',
    tag,
    summary: "List a collection's indexes (API key)",
    description: "Acts on the key's cluster.",
    auth: 'data',
    scopes: ['metadata:read'],
    params: SchemaCollectionParams,
    success: { status: 200, description: 'The indexes', schema: IndexList },
    errors: [],
  },
] as const satisfies readonly RouteDefinition[];
