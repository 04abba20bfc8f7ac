/**
 * The dataplatform reference server.
 * @packageDocumentation
 */
export { type AppOptions, buildApp } from './app.js';
export {
  type AccountSeed,
  addApiKey,
  type CreatedAccount,
  createAccountWithKey,
} from './bootstrap/accounts.js';
export type { DevAccount, DevCredentials } from './bootstrap/dev-credentials.js';
export { loadConfig, type ServerConfig } from './config.js';
export type { ServerOptions } from './options.js';
export { type RunningServer, startServer } from './server.js';
export { type ApiKeyRecord, KeyService, type KeyWithSecret, type UsagePage } from './services/keys.js';
export { type RobotRecord, RobotService } from './services/robots.js';
export { openStorage } from './storage/index.js';
export { indexColumns } from './storage/index-expressions.js';
export type { KeyOwner } from './storage/keys.js';
export type { Storage } from './storage/types.js';
export type { Clock } from './webhooks/clock.js';
export type { WebhookRuntime } from './webhooks/runtime.js';
