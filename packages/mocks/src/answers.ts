import { type ErrorCode, errorCodes, type Violation } from '@dataplatform/contract';
import { HttpResponse } from 'msw';
import { randomToken } from './ids.js';

/** What an operation answers, before the request id and the JSON encoding are added. */
export interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** An error body gets the answering request's id as `requestId`, also when it is replayed for a later request. */
  isError?: true;
  /** A body that is not JSON (the event stream, a backup's archive): sent as it is, with its own content type. */
  raw?: { contentType: string; text: string | Uint8Array<ArrayBuffer> };
}

/** A refusal with a registered error code; thrown by any step and turned into an error answer in one place. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  /** Headers the error answer carries, such as `Retry-After` and the `RateLimit-*` trio. */
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: ErrorCode,
    message: string = errorCodes[code].message,
    details?: Record<string, unknown>,
    headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.details = details;
    this.headers = headers;
  }

  /** The error for a rule the contract's semantics found broken. */
  static fromViolation(violation: Violation): ApiError {
    return new ApiError(violation.code, violation.message, violation.details);
  }

  /** The HTTP status the registry gives this code. */
  get status(): number {
    return errorCodes[this.code].status;
  }
}

/** The request's own X-Request-Id when it sent one, else a fresh `req_…` id. */
export function requestIdOf(request: Request): string {
  const given = request.headers.get('x-request-id')?.trim();
  return given ? given : `req_${randomToken(24)}`;
}

/** An error answer: `{ error, code, details? }`; `requestId` is added when it is sent. */
export function errorAnswer(error: ApiError): Answer {
  const body: Record<string, unknown> = { error: error.message, code: error.code };
  if (error.details !== undefined) body.details = error.details;
  return { status: error.status, body, isError: true, ...(error.headers ? { headers: error.headers } : {}) };
}

/** Encodes an answer as a JSON response that carries the request id (in the header, and in the body of an error). */
export function toResponse(
  answer: Answer,
  requestId: string,
  extraHeaders: Record<string, string> = {},
): Response {
  if (answer.raw) {
    return new HttpResponse(answer.raw.text, {
      status: answer.status,
      headers: { 'Content-Type': answer.raw.contentType, ...extraHeaders, 'X-Request-Id': requestId },
    });
  }
  // Not Modified carries headers only.
  if (answer.status === 304)
    return new HttpResponse(null, {
      status: 304,
      headers: { ...answer.headers, ...extraHeaders, 'X-Request-Id': requestId },
    });
  const body = answer.isError ? { ...(answer.body as object), requestId } : answer.body;
  return new HttpResponse(JSON.stringify(body), {
    status: answer.status,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      ...answer.headers,
      ...extraHeaders,
      'X-Request-Id': requestId,
    },
  });
}
