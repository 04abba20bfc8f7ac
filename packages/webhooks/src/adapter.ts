import { WebhookVerificationError } from './errors.js';
import type { Secrets } from './secrets.js';

/** Options shared by the framework adapters. */
export interface WebhookAdapterOptions {
  /** The subscription's secret exactly as returned (`whsec_…`), or several while one rotates. */
  secret: Secrets;
  /** See `VerifyOptions.toleranceSeconds`; default 300. */
  toleranceSeconds?: number;
  /** Called with every refused delivery before the 400 answer, e.g. to log it. */
  onFailure?: (error: WebhookVerificationError) => void;
}

/** What an adapter hands the route after a delivery checked out. */
export interface VerifiedWebhook<TPayload = unknown> {
  /** The body, parsed as JSON after it was verified. */
  payload: TPayload;
  /** The body's bytes exactly as they were verified. */
  rawBody: Uint8Array;
}

/** Largest body the Node adapters read unless told otherwise: an event carries up to two documents. */
export const DEFAULT_BODY_LIMIT = 4 * 1024 * 1024;

const decoder = new TextDecoder('utf-8', { fatal: true });

/** The verified body as JSON; `invalid_payload` when it is not UTF-8 JSON. */
export function parsePayload(rawBody: Uint8Array): unknown {
  try {
    return JSON.parse(decoder.decode(rawBody));
  } catch {
    throw new WebhookVerificationError(
      'invalid_payload',
      'the body is signed correctly but is not UTF-8 JSON',
    );
  }
}

/**
 * What a refused delivery is answered with: 400 and `{ error, code }`. An error that is not a verification
 * failure (e.g. a TypeError from a wrong secret option) is a bug of the receiver and is thrown on.
 */
export function refusal(
  error: unknown,
  onFailure: WebhookAdapterOptions['onFailure'],
): { error: string; code: string } {
  if (!(error instanceof WebhookVerificationError)) throw error;
  onFailure?.(error);
  return { error: error.message, code: error.code };
}
