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
export { type RunningServer, startServer } from './server.js';
export { openStorage } from './storage/index.js';
export type { Storage } from './storage/types.js';
export type { Clock } from './webhooks/clock.js';
export type { WebhookRuntime } from './webhooks/runtime.js';
