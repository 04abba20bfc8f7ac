import { ExitCode } from './exit-codes.js';

/** A failure the CLI explains itself: what went wrong, how to fix it, and the exit status. */
export class CliError extends Error {
  override name = 'CliError';
  /** The exit status of the process. */
  readonly exitCode: ExitCode;
  /** One line that tells the user what to do next. */
  readonly hint: string | undefined;

  constructor(message: string, options: { exitCode?: ExitCode; hint?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.exitCode = options.exitCode ?? ExitCode.error;
    this.hint = options.hint;
  }
}

/** The command line or its input is wrong (exit status 2). */
export class UsageError extends CliError {
  override name = 'UsageError';
  constructor(message: string, hint?: string) {
    super(message, { exitCode: ExitCode.usage, hint });
  }
}

/**
 * A failure while doing `operation` (e.g. `list documents of "orders"`); the top level words the cause and
 * names the operation, so every message says what was being attempted.
 */
export class OperationError extends Error {
  override name = 'OperationError';
  readonly operation: string;

  constructor(operation: string, cause: unknown) {
    super(`could not ${operation}`, { cause });
    this.operation = operation;
  }
}

/**
 * Awaits `work`, naming `operation` on failure.
 * @example const doc = await attempt(`get document "${id}" of "${collection}"`, client.data.get(collection, id));
 */
export async function attempt<T>(
  operation: string,
  work: PromiseLike<T> | (() => PromiseLike<T>),
): Promise<T> {
  try {
    return await (typeof work === 'function' ? work() : work);
  } catch (error) {
    if (error instanceof OperationError) throw error;
    throw new OperationError(operation, error);
  }
}
