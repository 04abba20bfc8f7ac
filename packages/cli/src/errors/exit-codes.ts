/**
 * The exit statuses of `dp`, one per kind of outcome a script may want to branch on. docs/cli.md lists them;
 * a new one is added at the end, never renumbered.
 */
export const ExitCode = {
  /** The command did what it was asked. */
  ok: 0,
  /** Any failure without a more precise status below: a 400 or 5xx answer, an unreadable config file, … */
  error: 1,
  /** The command line or its input was wrong: unknown option, missing argument, malformed JSON, bad file. */
  usage: 2,
  /** No credential is configured, or the server refused the one sent (401). */
  auth: 3,
  /** The document, profile or setting does not exist (404 from the server, or locally). */
  notFound: 4,
  /** The credential is valid but may not do this (403: missing scope, blocked address). */
  forbidden: 5,
  /** The write conflicts with the stored state (409: duplicate id, aborted transaction, reused idempotency key). */
  conflict: 6,
  /** The server could not be reached, or did not answer in time. */
  unreachable: 7,
  /** The rate limit was still exceeded after the retries (429). */
  rateLimited: 8,
  /** Interrupted with Ctrl-C (SIGINT), as shells report it. */
  interrupted: 130,
} as const;

/** One of the documented exit statuses. */
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
