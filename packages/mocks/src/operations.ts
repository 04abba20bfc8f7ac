import type { RouteId } from '@dataplatform/contract';
import { accountOperations } from './account-operations.js';
import { backupOperations } from './backup-operations.js';
import { batchOperations } from './batch-operation.js';
import { billingOperations } from './billing-operations.js';
import { clusterOperations, memberOperations } from './cluster-operations.js';
import { documentOperations, type Operation } from './document-operations.js';
import { functionOperations, triggerOperations } from './function-operations.js';
import { importOperations } from './import-operations.js';
import { intelligenceOperations } from './intelligence-operations.js';
import { keyOperations } from './key-operations.js';
import { metricsOperations } from './metrics-operations.js';
import { notificationOperations } from './notification-operations.js';
import { realtimeOperations } from './realtime-operations.js';
import { schemaOperations } from './schema-operations.js';
import { sqlOperations } from './sql-operation.js';
import { webhookOperations } from './webhook-operations.js';

/**
 * The behaviour of every route, by operation id. Typed by the contract's route ids, so a route added to
 * the contract without an implementation here fails the type check (and the route-coverage test).
 */
export const operations: Record<RouteId, Operation> = {
  ...documentOperations,
  ...batchOperations,
  ...sqlOperations,
  ...realtimeOperations,
  ...accountOperations,
  ...importOperations,
  ...webhookOperations,
  ...keyOperations,
  ...clusterOperations,
  ...memberOperations,
  ...billingOperations,
  ...schemaOperations,
  ...metricsOperations,
  ...notificationOperations,
  ...functionOperations,
  ...triggerOperations,
  ...backupOperations,
  ...intelligenceOperations,
};
