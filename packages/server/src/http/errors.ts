import { type ErrorCode, errorCodes } from '@dataplatform/contract';

/** An error answer with a documented code; thrown anywhere in a request and turned into JSON by the error handler. */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string = errorCodes[code].message,
    readonly details?: unknown,
    readonly headers?: Record<string, string | number>,
  ) {
    super(message);
    this.status = errorCodes[code].status;
  }
}

/** The JSON text of an error answer. */
export function errorBody(error: ApiError, requestId: string): string {
  return JSON.stringify({
    error: error.message,
    code: error.code,
    ...(error.details === undefined ? {} : { details: error.details }),
    requestId,
  });
}
