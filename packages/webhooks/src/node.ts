/**
 * Everything of `@dataplatform/webhooks`, plus `verify` and `sign` in synchronous form on `node:crypto`, for
 * Node.js (Bun and Deno provide `node:crypto` too).
 * @module
 */
export * from './index.js';
export { sign, verify } from './node-crypto.js';
