/**
 * The TypeScript client of the dataplatform API.
 * @example import { DataPlatform } from '@dataplatform/sdk'; const client = new DataPlatform();
 * @packageDocumentation
 */

export { type ClientOptions, DataPlatform, DataPlatform as default, DEFAULT_BASE_URL } from './client.js';
export type {
  ActivityEntry,
  ApiKey,
  ApiKeyCreate,
  ApiKeyList,
  ApiKeyUsageEntry,
  ApiKeyWithSecret,
  AuthSession,
  BatchPredictionCreate,
  BillingAccount,
  CheckoutRequest,
  Cluster,
  ClusterCreate,
  ClusterList,
  ClusterMember,
  ClusterMemberList,
  ClusterRole,
  ClusterUpdate,
  CollectionInfo,
  CollectionInfoList,
  CollectionQuery,
  CurrentSession,
  Dataset,
  DatasetCreate,
  DatasetList,
  DatasetRows,
  DeletedResponse,
  DocumentPage,
  ErrorCode,
  ErrorResponse,
  FieldSummary,
  FunctionCreate,
  FunctionDeploy,
  FunctionDetail,
  FunctionRecord,
  ImportFormat,
  Index,
  IndexCreate,
  IndexList,
  InferredSchema,
  Invitation,
  InvitationCreate,
  Invocation,
  InvocationStatus,
  InvocationTrigger,
  Invoice,
  InvoiceLine,
  InvoiceList,
  InvokeResult,
  IpAllowlist,
  Job,
  JobList,
  JobProgress,
  JobRowError,
  JobStatus,
  LoggedOut,
  MetricPoint,
  MetricSeries,
  MetricsSummary,
  Model,
  ModelCreate,
  ModelCreateInCluster,
  ModelList,
  ModelMetrics,
  Notification,
  NotificationList,
  NotificationPreferences,
  NotificationPreferencesUpdate,
  NotificationsRead,
  PasswordReset,
  Plan,
  PredictRequest,
  PredictResult,
  RedirectUrl,
  RequestLogEntry,
  RequestLogList,
  ResetRequested,
  Robot,
  RobotCreate,
  RobotList,
  Settings as AccountSettings,
  SettingsPatch,
  SignInRequest,
  SignUpRequest,
  SqlCondition,
  SqlResponse,
  StoredDocument,
  Trigger,
  TriggerCreate,
  TriggerRun,
  TriggerSource,
  TriggerTarget,
  TriggerUpdate,
  UsageDay,
  UsageList,
  User,
  Validator,
  ValidatorCheckResult,
  ValidatorDeleted,
  ValidatorInput,
  WebhookAttemptRecord,
  WebhookCreateRequest,
  WebhookDeliveryRecord,
  WebhookDeliveryStatus,
  WebhookEvent,
  WebhookEventType,
  WebhookSecretRotationRecord,
  WebhookStreamMessageRecord,
  WebhookSubscriptionRecord,
} from './contract-types.js';
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
  HeadersTooLargeError,
  InternalServerError,
  MethodNotAllowedError,
  type NoAnswerOptions,
  NotFoundError,
  PayloadTooLargeError,
  PaymentRequiredError,
  PermissionDeniedError,
  PreconditionFailedError,
  PreconditionRequiredError,
  RateLimitError,
  RequestTimeoutError,
  UnsupportedMediaTypeError,
  URITooLongError,
} from './core/error.js';
export { Page, type PageBody, PagePromise } from './core/pagination.js';
export type { ServerSentEvent } from './internal/event-stream.js';
export type { Fetch } from './internal/fetch-transport.js';
export type { HeadersInput } from './internal/headers.js';
export type { RateLimitInfo } from './internal/rate-limit.js';
export type { CallOptions, EventStreamOptions, Query, RequestOptions } from './internal/request-options.js';
export type { RequestBody } from './internal/transport.js';
export { Auth, DeviceSignIn, Passkeys, type SignInOptions } from './resources/auth.js';
export { type BackupClusterParams, type BackupRestoreParams, Backups } from './resources/backups.js';
export type {
  BatchData,
  BatchError,
  BatchOperation,
  BatchOptions,
  BatchResponse,
  BatchResult,
} from './resources/batch.js';
export { Billing, BillingInvoices, type InvoiceListParams, type UsageParams } from './resources/billing.js';
export {
  type ChangeEvent,
  ChangeStreamGoneError,
  type SubscribeOptions,
} from './resources/changes.js';
export {
  ClusterInvitations,
  type ClusterListParams,
  ClusterMembers,
  Clusters,
} from './resources/clusters.js';
export { Collection } from './resources/collection.js';
export {
  type AnyDocument,
  type ConditionalOptions,
  Data,
  type DocumentInput,
  type ImportOptions,
  type ListParams,
  type MergePatch,
} from './resources/data.js';
export {
  type FunctionListParams,
  Functions,
  type InvocationListParams,
} from './resources/functions.js';
export { GroupedQueryBuilder, type GroupRow } from './resources/grouped-query.js';
export {
  type DatasetRowsParams,
  Datasets,
  type IntelligenceClusterParams,
} from './resources/intelligence/datasets.js';
export { Intelligence } from './resources/intelligence/index.js';
export { Models } from './resources/intelligence/models.js';
export { Predictions } from './resources/intelligence/predictions.js';
export { Jobs, type WatchOptions } from './resources/jobs.js';
export { Keys, type KeyUsageParams } from './resources/keys.js';
export { Logs, type RequestLogParams, RequestLogs } from './resources/logs.js';
export { Metrics, type MetricsParams } from './resources/metrics.js';
export {
  type NotificationListParams,
  type NotificationStreamOptions,
  Notifications,
} from './resources/notifications.js';
export {
  type CompiledQuery,
  type FieldName,
  QueryBuilder,
  type SqlParam,
  type WhereOperator,
} from './resources/query.js';
export { RobotKeys, Robots } from './resources/robots.js';
export {
  type InferParams,
  Schema,
  type SchemaClusterParams,
  SchemaCollections,
  SchemaIndexes,
  SchemaValidator,
} from './resources/schema.js';
export { IpAllowlistSetting, Settings } from './resources/settings.js';
export { type TriggerListParams, type TriggerRunListParams, Triggers } from './resources/triggers.js';
export {
  type DeliveryListParams,
  type WebhookStreamEvent,
  type WebhookStreamOptions,
  Webhooks,
  type WebhookTestParams,
  type WebhookWithSecret,
} from './resources/webhooks.js';
