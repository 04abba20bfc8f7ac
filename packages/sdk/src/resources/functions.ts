import type {
  FunctionCreate,
  FunctionDeploy,
  FunctionDetail,
  FunctionRecord,
  Invocation,
  InvokeResult,
} from '../contract-types.js';
import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import { APIResource } from '../core/resource.js';
import type { RequestOptions } from '../internal/request-options.js';
import { segment } from '../internal/utils.js';

/** Query of `client.functions.list()`. */
export interface FunctionListParams {
  /** Only the functions of this cluster. */
  clusterId?: string;
  /** Functions per page, 1 to 1000 (default 50). */
  limit?: number;
  skip?: number;
}

/** Query of `client.functions.invocations()`. */
export interface InvocationListParams {
  limit?: number;
  skip?: number;
}

/**
 * Serverless functions of the signed-in user's clusters, under `/api/functions` (session token), and their run by
 * name with an API key holding `function:invoke` (`invokeByName`).
 * @example
 * const fn = await client.functions.create({ name: 'hello', code: 'export default (input) => ({ hi: input })' });
 * const { result } = await client.functions.invoke(fn._id, { name: 'Ada' });
 */
export class Functions extends APIResource {
  /** Deploys version 1; BadRequestError when the code does not compile or has no default export. */
  create(body: FunctionCreate, options?: RequestOptions): APIPromise<FunctionRecord> {
    return this._client.post('/api/functions', { ...options, body });
  }

  /** The functions you can see: await for a page, or `for await` for every one. */
  list(params: FunctionListParams = {}, options?: RequestOptions): PagePromise<FunctionRecord> {
    return this._client.getAPIList(
      '/api/functions',
      { clusterId: params.clusterId, limit: params.limit, skip: params.skip },
      options,
    );
  }

  /** One function with its code and env. */
  get(id: string, options?: RequestOptions): APIPromise<FunctionDetail> {
    return this._client.get(path(id), options);
  }

  /** Deploys a new version (the version goes up by one); limits and env left out stay. */
  deploy(id: string, body: FunctionDeploy, options?: RequestOptions): APIPromise<FunctionRecord> {
    return this._client.put(path(id), { ...options, body });
  }

  /** Deletes it, its run history and the triggers that target it. */
  delete(id: string, options?: RequestOptions): APIPromise<{ _id: string; deleted: true }> {
    return this._client.delete(path(id), options);
  }

  /**
   * Runs it with `input` (any JSON value). A throw is an UnprocessableEntityError with code `function_error`; a
   * limit, `function_timeout` or `function_memory_exceeded`.
   */
  invoke<R = unknown>(
    id: string,
    input?: unknown,
    options?: RequestOptions,
  ): APIPromise<InvokeResult & { result: R }> {
    return this._client.post(`${path(id)}/invoke`, { ...options, body: input ?? null });
  }

  /** Runs the function of this name in the key's cluster (an API key with `function:invoke`). */
  invokeByName<R = unknown>(
    name: string,
    input?: unknown,
    options?: RequestOptions,
  ): APIPromise<InvokeResult & { result: R }> {
    return this._client.post(`/api/v1/functions/${segment(name, 'function name')}/invoke`, {
      ...options,
      body: input ?? null,
    });
  }

  /** Its runs, newest first, with their logs. */
  invocations(
    id: string,
    params: InvocationListParams = {},
    options?: RequestOptions,
  ): PagePromise<Invocation> {
    return this._client.getAPIList(
      `${path(id)}/invocations`,
      { limit: params.limit, skip: params.skip },
      options,
    );
  }
}

function path(id: string): string {
  return `/api/functions/${segment(id, 'function id')}`;
}
