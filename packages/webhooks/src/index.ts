/**
 * Verifies dataplatform webhook deliveries (and any Standard Webhooks sender's) with Web Crypto, in every
 * runtime. On Node.js, `@dataplatform/webhooks/node` adds the synchronous `verify` and `sign`.
 * @module
 */
export type { RawBody } from './body.js';
export type { VerifyOptions } from './delivery.js';
export { WebhookVerificationError, type WebhookVerificationErrorCode } from './errors.js';
export type { DataPlatformEvent } from './event.js';
export { DEFAULT_TOLERANCE_SECONDS, HEADER } from './header-names.js';
export type { HeadersGetter, HeadersLike } from './headers.js';
export type { Secrets } from './secrets.js';
export type { SignOptions, WebhookHeaders } from './signing.js';
export { signAsync, verifyAsync } from './web-crypto.js';
