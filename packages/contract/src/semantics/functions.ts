import type { Violation } from './documents.js';

/** The limits of functions, read by the schemas, the server's sandbox and the mocks. */
export const FUNCTION_LIMITS = {
  /** 1 MiB of source text (counted in UTF-16 code units, which is never fewer than the characters). */
  codeChars: 1024 * 1024,
  defaultTimeoutMs: 1000,
  maxTimeoutMs: 30_000,
  defaultMemoryMb: 64,
  /** isolated-vm refuses heaps much under 8 MiB; a function needs a few MiB for itself. */
  minMemoryMb: 8,
  maxMemoryMb: 256,
  maxEnvEntries: 64,
  /** Lines of `ctx.log` kept per run, and characters per line: a chatty loop cannot fill the database. */
  maxLogLines: 200,
  maxLogLineChars: 2000,
  /**
   * Failed runs in a row after which the cluster's owner gets a `function_failing` entry in the activity log: once
   * per streak, so a function that keeps failing does not flood the log; a run that succeeds ends the streak.
   */
  failingStreak: 5,
} as const;

/** How a run of a function failed, as an invocation's `status`. */
export type FunctionFailure = 'error' | 'timeout' | 'memory';

/** The 422 answer of a failed run: `function_error` with the thrown message and stack, or a limit's own code. */
export function functionFailure(
  failure: FunctionFailure,
  error: { message: string; stack: string | null },
  limits: { timeoutMs: number; memoryMb: number },
): Violation {
  if (failure === 'timeout')
    return {
      code: 'function_timeout',
      message: `The function ran longer than its limit of ${limits.timeoutMs} ms`,
      details: { timeoutMs: limits.timeoutMs },
    };
  if (failure === 'memory')
    return {
      code: 'function_memory_exceeded',
      message: `The function used more than its limit of ${limits.memoryMb} MiB`,
      details: { memoryMb: limits.memoryMb },
    };
  return { code: 'function_error', message: `The function threw: ${error.message}`, details: { ...error } };
}
