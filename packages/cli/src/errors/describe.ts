import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from '@dataplatform/sdk';
import { CliError, OperationError } from './cli-error.js';
import { ExitCode } from './exit-codes.js';
import type { Failure, FailureContext } from './failure.js';
import { hintsByCode, unreachableHint } from './hints.js';

/** Exit statuses by HTTP status; anything else is a plain error. */
const exitByStatus: Record<number, ExitCode> = {
  401: ExitCode.auth,
  403: ExitCode.forbidden,
  404: ExitCode.notFound,
  409: ExitCode.conflict,
  429: ExitCode.rateLimited,
};

/**
 * Words any error for the user: the operation it interrupted, the server's code and message, a hint with the
 * fix, and the exit status. Errors the CLI did not foresee keep their message and exit with status 1.
 */
export function describeError(error: unknown, context: FailureContext = {}): Failure {
  const operation = error instanceof OperationError ? error.operation : undefined;
  const cause = error instanceof OperationError ? error.cause : error;
  const failure = describeCause(cause, context);
  if (operation) {
    failure.operation = operation;
    failure.message = `could not ${operation}: ${failure.message}`;
  }
  return failure;
}

function describeCause(cause: unknown, context: FailureContext): Failure {
  if (cause instanceof CliError) {
    return withHint({ message: cause.message, exitCode: cause.exitCode }, cause.hint);
  }
  if (cause instanceof APIUserAbortError) {
    return { message: 'interrupted', exitCode: ExitCode.interrupted };
  }
  if (cause instanceof APIConnectionError) {
    const timedOut = cause instanceof APIConnectionTimeoutError;
    const message = timedOut
      ? 'the request timed out'
      : `no connection to ${context.baseUrl ?? 'the server'}`;
    return { message, hint: unreachableHint(context, timedOut), exitCode: ExitCode.unreachable };
  }
  if (cause instanceof APIError && cause.status !== undefined) {
    const body = typeof cause.error === 'object' && cause.error !== null ? cause.error : {};
    const text = (body as { error?: unknown }).error;
    const code = cause.code;
    const failure: Failure = {
      message: `${cause.status}${code ? ` ${code}` : ''}${typeof text === 'string' ? `: ${text}` : ''}`,
      exitCode: exitByStatus[cause.status] ?? ExitCode.error,
      status: cause.status,
    };
    if (code) failure.code = code;
    if (cause.requestId) failure.requestId = cause.requestId;
    if (cause.details !== undefined) failure.details = cause.details;
    const hint = code ? hintsByCode[code]?.(cause.details, context) : undefined;
    return withHint(
      failure,
      hint ?? (cause.status === 401 ? hintsByCode.unauthorized!(undefined, context) : undefined),
    );
  }
  return { message: cause instanceof Error ? cause.message : String(cause), exitCode: ExitCode.error };
}

function withHint(failure: Failure, hint: string | undefined): Failure {
  if (hint) failure.hint = hint;
  return failure;
}
