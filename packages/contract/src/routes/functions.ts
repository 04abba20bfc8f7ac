import { Deleted } from '../schemas/common.js';
import {
  FunctionCreate,
  FunctionDeploy,
  FunctionDetail,
  FunctionInput,
  FunctionList,
  FunctionListQuery,
  FunctionNameParams,
  FunctionParams,
  FunctionRecord,
  InvocationList,
  InvocationListQuery,
  InvokeResult,
} from '../schemas/function.js';
import type { RouteDefinition } from './types.js';

const tag = 'functions';

const ROLES =
  "Owners, admins and developers of the function's cluster may call it (403 `forbidden` for viewers); a function of a cluster the caller is no member of is 404 `not_found`.";

const FAILURES =
  'A throw is 422 `function_error` (`details.message`, `details.stack`); a run past `timeoutMs` is 422 `function_timeout`; a heap past `memoryMb` is 422 `function_memory_exceeded`. Every run is recorded as an invocation.';

/** Serverless functions of the signed-in user's clusters, under /api/functions. Session token only. */
export const functionRoutes = [
  {
    id: 'functions.create',
    method: 'POST',
    path: '/api/functions',
    tag,
    summary: 'Create a function',
    description:
      'Stores version 1 of a function in the cluster `clusterId` names (the default cluster when left out). The code is compiled at once: a syntax error, or no default export, is 400 `validation_error` and nothing is stored. A name already used in the cluster is 409 `conflict`. Owners, admins and developers only (403 `forbidden`).',
    auth: 'session',
    scopes: [],
    body: FunctionCreate,
    success: { status: 201, description: 'The new function', schema: FunctionRecord },
    errors: ['validation_error', 'forbidden', 'conflict'],
  },
  {
    id: 'functions.list',
    method: 'GET',
    path: '/api/functions',
    tag,
    summary: 'List functions',
    description: 'The functions of every cluster the caller is a member of, or of `clusterId`, oldest first.',
    auth: 'session',
    scopes: [],
    query: FunctionListQuery,
    success: { status: 200, description: 'A page of functions', schema: FunctionList },
    errors: ['validation_error'],
  },
  {
    id: 'functions.get',
    method: 'GET',
    path: '/api/functions/{id}',
    tag,
    summary: 'Get a function with its code',
    description: 'Any member of its cluster may read it.',
    auth: 'session',
    scopes: [],
    params: FunctionParams,
    success: { status: 200, description: 'The function', schema: FunctionDetail },
    errors: ['not_found'],
  },
  {
    id: 'functions.deploy',
    method: 'PUT',
    path: '/api/functions/{id}',
    tag,
    summary: 'Deploy a new version',
    description: `The version goes up by one; limits and env left out stay as they were. A syntax error is 400 \`validation_error\` and the running version stays. ${ROLES}`,
    auth: 'session',
    scopes: [],
    params: FunctionParams,
    body: FunctionDeploy,
    success: { status: 200, description: 'The function', schema: FunctionRecord },
    errors: ['not_found', 'forbidden'],
  },
  {
    id: 'functions.delete',
    method: 'DELETE',
    path: '/api/functions/{id}',
    tag,
    summary: 'Delete a function',
    description: `Its invocations go with it; triggers that target it are deleted too. ${ROLES}`,
    auth: 'session',
    scopes: [],
    params: FunctionParams,
    success: { status: 200, description: 'Deleted', schema: Deleted },
    errors: ['not_found', 'forbidden'],
  },
  {
    id: 'functions.invoke',
    method: 'POST',
    path: '/api/functions/{id}/invoke',
    tag,
    summary: 'Run a function',
    description: `The body, any JSON value, is the function's \`input\` (null when there is none). ${FAILURES} A paused cluster is 503 \`cluster_unavailable\`. ${ROLES}`,
    auth: 'session',
    scopes: [],
    params: FunctionParams,
    body: FunctionInput,
    bodyRequired: false,
    success: { status: 200, description: 'What the function returned', schema: InvokeResult },
    errors: [
      'not_found',
      'forbidden',
      'function_error',
      'function_timeout',
      'function_memory_exceeded',
      'cluster_unavailable',
    ],
  },
  {
    id: 'functions.invocations',
    method: 'GET',
    path: '/api/functions/{id}/invocations',
    tag,
    summary: "List a function's runs",
    description: 'Newest first, with their logs. Any member of its cluster may read them.',
    auth: 'session',
    scopes: [],
    params: FunctionParams,
    query: InvocationListQuery,
    success: { status: 200, description: 'A page of invocations', schema: InvocationList },
    errors: ['not_found'],
  },
] as const satisfies readonly RouteDefinition[];

/** Running a function on the data plane, with an API key of its cluster. */
export const functionKeyRoutes = [
  {
    id: 'functions.invokeByName',
    method: 'POST',
    path: '/api/v1/functions/{name}/invoke',
    tag,
    summary: 'Run a function by name',
    description: `The function of that name in the key's cluster; the body is its \`input\`. ${FAILURES} An unknown name is 404 \`not_found\`.`,
    auth: 'data',
    scopes: ['function:invoke'],
    params: FunctionNameParams,
    body: FunctionInput,
    bodyRequired: false,
    success: { status: 200, description: 'What the function returned', schema: InvokeResult },
    errors: ['not_found', 'function_error', 'function_timeout', 'function_memory_exceeded'],
  },
] as const satisfies readonly RouteDefinition[];
