/**
 * The TypeScript client of the dataplatform API.
 * @example import { DataPlatform } from '@dataplatform/sdk'; const client = new DataPlatform();
 * @packageDocumentation
 */

export type {
  CollectionQuery,
  DeletedResponse,
  DocumentPage,
  ErrorCode,
  ErrorResponse,
  SqlCondition,
  SqlResponse,
  StoredDocument,
} from '@dataplatform/contract';
export { type ClientOptions, DataPlatform, DataPlatform as default, DEFAULT_BASE_URL } from './client.js';
export { APIPromise, type WithResponse } from './core/api-promise.js';
export {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  type APIErrorCode,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  DataPlatformError,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
} from './core/error.js';
export { Page, type PageBody, PagePromise } from './core/pagination.js';
export type { Fetch } from './internal/fetch-transport.js';
export type { HeadersInput } from './internal/headers.js';
export type { RateLimitInfo } from './internal/rate-limit.js';
export type { CallOptions, Query, RequestOptions } from './internal/request-options.js';
export type {
  BatchData,
  BatchError,
  BatchOperation,
  BatchOptions,
  BatchResponse,
  BatchResult,
} from './resources/batch.js';
export { Collection } from './resources/collection.js';
export {
  type AnyDocument,
  Data,
  type DocumentInput,
  type ListParams,
  type MergePatch,
} from './resources/data.js';
export {
  type CompiledQuery,
  type FieldName,
  QueryBuilder,
  type SqlParam,
  type WhereOperator,
} from './resources/query.js';
