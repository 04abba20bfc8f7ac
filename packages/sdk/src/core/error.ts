import type { ErrorCode } from '@dataplatform/contract';

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
  /** The request id from the body, else from the `X-Request-Id` header; quote it in bug reports. */
  readonly requestId: string | undefined;
  /** Extra facts from the body, such as the invalid field. */
  readonly details: unknown;

  constructor(status: TStatus, error: unknown, message: string | undefined, headers: THeaders) {
    const body = isObject(error) ? error : undefined;
    super(APIError.#message(status, body, error, message));
    this.status = status;
    this.headers = headers;
    this.error = error;
    this.code = typeof body?.code === 'string' ? body.code : undefined;
    this.details = body?.details;
    this.requestId =
      typeof body?.requestId === 'string' ? body.requestId : (headers?.get('x-request-id') ?? undefined);
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
  ): APIError<number, Headers> {
    const Class = (status >= 500 ? InternalServerError : STATUS_CLASSES[status]) ?? APIError;
    return new Class(status, error, message, headers);
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
/** 403: the credential lacks a scope, or the address is blocked. */
export class PermissionDeniedError extends APIError<403, Headers> {
  override name = 'PermissionDeniedError';
}
/** 404: the document, webhook or route does not exist. */
export class NotFoundError extends APIError<404, Headers> {
  override name = 'NotFoundError';
}
/** 409: a duplicate id, a reused idempotency key, or an aborted transaction. */
export class ConflictError extends APIError<409, Headers> {
  override name = 'ConflictError';
}
/** 413: the body is over the server's limit (1 MiB by default). */
export class PayloadTooLargeError extends APIError<413, Headers> {
  override name = 'PayloadTooLargeError';
}
/** 429: the key used up its requests for this minute; `headers.get('retry-after')` says for how long. */
export class RateLimitError extends APIError<429, Headers> {
  override name = 'RateLimitError';
}
/** 5xx: the server failed or the cluster is unavailable. */
export class InternalServerError extends APIError<number, Headers> {
  override name = 'InternalServerError';
}

/** No answer arrived: the connection was refused, reset, or failed to resolve. */
export class APIConnectionError extends APIError<undefined, undefined> {
  override name = 'APIConnectionError';
  constructor({ message, cause }: { message?: string; cause?: unknown } = {}) {
    super(undefined, undefined, message ?? 'Connection error', undefined);
    if (cause !== undefined) this.cause = cause;
  }
}

/** No answer arrived within the `timeout`. */
export class APIConnectionTimeoutError extends APIConnectionError {
  override name = 'APIConnectionTimeoutError';
  constructor({ message, cause }: { message?: string; cause?: unknown } = {}) {
    super({ message: message ?? 'Request timed out', cause });
  }
}

/** The caller's `signal` aborted the request. */
export class APIUserAbortError extends APIError<undefined, undefined> {
  override name = 'APIUserAbortError';
  constructor({ message, cause }: { message?: string; cause?: unknown } = {}) {
    super(undefined, undefined, message ?? 'Request was aborted', undefined);
    if (cause !== undefined) this.cause = cause;
  }
}

type StatusClass = new (
  status: number,
  error: unknown,
  message: string | undefined,
  headers: Headers,
) => APIError<number, Headers>;

const STATUS_CLASSES: Record<number, StatusClass | undefined> = {
  400: BadRequestError as StatusClass,
  401: AuthenticationError as StatusClass,
  403: PermissionDeniedError as StatusClass,
  404: NotFoundError as StatusClass,
  409: ConflictError as StatusClass,
  413: PayloadTooLargeError as StatusClass,
  429: RateLimitError as StatusClass,
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
