/**
 * Which check a delivery failed. Stable strings: other languages' verifiers and `spec/webhooks/vectors.json` use
 * the same ones.
 */
export type WebhookVerificationErrorCode =
  /** Neither signature header is there, or `webhook-signature` came without `webhook-id`/`webhook-timestamp`. */
  | 'missing_header'
  /** A signature or timestamp header is there but not in its documented format. */
  | 'malformed_header'
  /** No signature in a header matches the body under any of the secrets. */
  | 'invalid_signature'
  /** A timestamp is older than the tolerance allows: a replay, a queue that held it, or a slow clock. */
  | 'timestamp_too_old'
  /** A timestamp is further in the future than the tolerance allows: usually a clock that runs ahead. */
  | 'timestamp_in_future'
  /** Standard Webhooks headers are there, but no secret is `whsec_` followed by base64, so none can check them. */
  | 'invalid_secret'
  /** Adapters only: the verified body is not JSON. */
  | 'invalid_payload';

// A brand rather than plain `instanceof`: the ESM and CommonJS builds, and each subpath export, may each carry a
// copy of this class, and an error thrown by one copy must still be recognised by another.
const BRAND = Symbol.for('@dataplatform/webhooks.WebhookVerificationError');

/**
 * A delivery failed verification. `code` names the check; `header` the header it read, when there is one.
 *
 * @example
 * try { verify(rawBody, req.headers, secret) }
 * catch (error) { if (error instanceof WebhookVerificationError) console.warn(error.code, error.message) }
 */
export class WebhookVerificationError extends Error {
  readonly code: WebhookVerificationErrorCode;
  readonly header: string | undefined;

  constructor(code: WebhookVerificationErrorCode, message: string, header?: string) {
    super(message);
    this.name = 'WebhookVerificationError';
    this.code = code;
    this.header = header;
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}
Object.defineProperty(WebhookVerificationError.prototype, BRAND, { value: true });
