import type { ErrorCode } from '../contract-types.js';

/** Base class of every error this SDK throws. */
export class DataPlatformError extends Error {
  override name = 'DataPlatformError';
}

/** A documented error code, or any other string a newer server may send. */
export type APIErrorCode = ErrorCode | (string & {});

/**
 * An error answer from the API (or, for the connection subclasses, no answer at all).
 * `APIError.generate` picks the subclass from the status, so `catch (e) { if (e instanceof NotFoundError) … }` works.
 */
export class APIError<
  TStatus extends number | undefined = number | undefined,
  THeaders extends Headers | undefined = Headers | undefined,
> extends DataPlatformError {
  override name = 'APIError';
  /** HTTP status of the answer; undefined when no answer arrived. */
  readonly status: TStatus;
  /** Headers of the answer; undefined when no answer arrived. */
  readonly headers: THeaders;
  /** The parsed error body (`{ error, code, details?, requestId }`), or the raw text when it was not JSON. */
  readonly error: unknown;
  /** Machine-readable code from the body, e.g. `not_found`. */
  readonly code: APIErrorCode | undefined;
  /**
   * The request's id; quote it in bug reports. The id in the error body, else the answer's `X-Request-Id`, else
   * (no answer, or one from a proxy that set neither) the `X-Request-Id` the SDK sent, which the server logs too.
   */
  readonly requestId: string;
  /** Extra facts from the body, such as the invalid field. */
  readonly details: unknown;

  constructor(
    status: TStatus,
    error: unknown,
    message: string | undefined,
    headers: THeaders,
    /** The `X-Request-Id` the request was sent with: the id when the answer names none. */
    sentRequestId = '',
  ) {
    const body = isObject(error) ? error : undefined;
    super(APIError.#message(status, body, error, message));
    this.status = status;
    this.headers = headers;
    this.error = error;
    this.code = typeof body?.code === 'string' ? body.code : undefined;
    this.details = body?.details;
    this.requestId =
      typeof body?.requestId === 'string' && body.requestId
        ? body.requestId
        : headers?.get('x-request-id') || sentRequestId;
  }

  static #message(
    status: number | undefined,
    body: Record<string, unknown> | undefined,
    raw: unknown,
    message?: string,
  ) {
    const text =
      typeof body?.error === 'string'
        ? body.error
        : message || (typeof raw === 'string' && raw ? raw.slice(0, 200) : undefined);
    const code = typeof body?.code === 'string' ? ` ${body.code}` : '';
    if (status === undefined) return text ?? 'Connection error';
    return `${status}${code}${text ? `: ${text}` : ''}`;
  }

  /** The one factory: picks the subclass for `status` (and keeps APIError for statuses without one). */
  static generate(
    status: number,
    error: unknown,
    message: string | undefined,
    headers: Headers,
    sentRequestId?: string,
  ): APIError<number, Headers> {
    const Class = (status >= 500 ? InternalServerError : STATUS_CLASSES[status]) ?? APIError;
    return new Class(status, error, message, headers, sentRequestId);
  }
}

/** 400: the request is not of the documented form (`validation_error`, `invalid_json`, `invalid_body`, …). */
export class BadRequestError extends APIError<400, Headers> {
  override name = 'BadRequestError';
}
/** 401: no credential, an unknown one, or an expired or paused key. */
export class AuthenticationError extends APIError<401, Headers> {
  override name = 'AuthenticationError';
}
/** 402: the account is out of credits (`payment_required`): data writes wait for credits; reads still work. */
export class PaymentRequiredError extends APIError<402, Headers> {
  override name = 'PaymentRequiredError';
}
/** 403: the credential lacks a scope, or the address is blocked. */
export class PermissionDeniedError extends APIError<403, Headers> {
  override name = 'PermissionDeniedError';
}
/** 404: the document, webhook or route does not exist. */
export class NotFoundError extends APIError<404, Headers> {
  override name = 'NotFoundError';
}
/** 405: the path exists, but not with this method; `headers.get('allow')` lists the methods it has. */
export class MethodNotAllowedError extends APIError<405, Headers> {
  override name = 'MethodNotAllowedError';
}
/** 408: the request did not reach the server in full in time (retried like a connection error). */
export class RequestTimeoutError extends APIError<408, Headers> {
  override name = 'RequestTimeoutError';
}
/** 409: a duplicate id, a reused idempotency key, or an aborted transaction. */
export class ConflictError extends APIError<409, Headers> {
  override name = 'ConflictError';
}
/**
 * 412: a write's `ifMatch` names none of the document's current entity tags (`precondition_failed`): it changed
 * since it was read, and nothing was written. Read it again and retry.
 */
export class PreconditionFailedError extends APIError<412, Headers> {
  override name = 'PreconditionFailedError';
}
/** 413: the body is over the server's limit (1 MiB by default). */
export class PayloadTooLargeError extends APIError<413, Headers> {
  override name = 'PayloadTooLargeError';
}
/** 414: a path segment is longer than any identifier the API uses (2048 characters, percent-encoded). */
export class URITooLongError extends APIError<414, Headers> {
  override name = 'URITooLongError';
}
/** 415: the body's `Content-Type` is not one the route takes (JSON, or an import route's own formats). */
export class UnsupportedMediaTypeError extends APIError<415, Headers> {
  override name = 'UnsupportedMediaTypeError';
}
/** 428: device sign-in is not confirmed yet (`authorization_pending`); poll again after the interval. */
export class PreconditionRequiredError extends APIError<428, Headers> {
  override name = 'PreconditionRequiredError';
}
/** 429: the key used up its requests for this minute; `headers.get('retry-after')` says for how long. */
export class RateLimitError extends APIError<429, Headers> {
  override name = 'RateLimitError';
}
/** 431: the request line and headers together exceed the server's limit (16 KiB). */
export class HeadersTooLargeError extends APIError<431, Headers> {
  override name = 'HeadersTooLargeError';
}
/** 5xx: the server failed or the cluster is unavailable. */
export class InternalServerError extends APIError<number, Headers> {
  override name = 'InternalServerError';
}

/** What an error without an answer is made of; `requestId` is the `X-Request-Id` the request was sent with. */
export interface NoAnswerOptions {
  message?: string;
  cause?: unknown;
  requestId?: string;
}

/** No answer arrived: the connection was refused, reset, or failed to resolve. */
export class APIConnectionError extends APIError<undefined, undefined> {
  override name = 'APIConnectionError';
  constructor({ message, cause, requestId }: NoAnswerOptions = {}) {
    super(undefined, undefined, message ?? 'Connection error', undefined, requestId);
    if (cause !== undefined) this.cause = cause;
  }
}

/** No answer arrived within the `timeout`. */
export class APIConnectionTimeoutError extends APIConnectionError {
  override name = 'APIConnectionTimeoutError';
  constructor({ message, cause, requestId }: NoAnswerOptions = {}) {
    super({ message: message ?? 'Request timed out', cause, requestId });
  }
}

/** The caller's `signal` aborted the request. */
export class APIUserAbortError extends APIError<undefined, undefined> {
  override name = 'APIUserAbortError';
  constructor({ message, cause, requestId }: NoAnswerOptions = {}) {
    super(undefined, undefined, message ?? 'Request was aborted', undefined, requestId);
    if (cause !== undefined) this.cause = cause;
  }
}

type StatusClass = new (
  status: number,
  error: unknown,
  message: string | undefined,
  headers: Headers,
  sentRequestId?: string,
) => APIError<number, Headers>;

const STATUS_CLASSES: Record<number, StatusClass | undefined> = {
  400: BadRequestError as StatusClass,
  401: AuthenticationError as StatusClass,
  402: PaymentRequiredError as StatusClass,
  403: PermissionDeniedError as StatusClass,
  404: NotFoundError as StatusClass,
  405: MethodNotAllowedError as StatusClass,
  408: RequestTimeoutError as StatusClass,
  409: ConflictError as StatusClass,
  412: PreconditionFailedError as StatusClass,
  413: PayloadTooLargeError as StatusClass,
  414: URITooLongError as StatusClass,
  415: UnsupportedMediaTypeError as StatusClass,
  428: PreconditionRequiredError as StatusClass,
  429: RateLimitError as StatusClass,
  431: HeadersTooLargeError as StatusClass,
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
