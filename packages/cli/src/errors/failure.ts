import type { ExitCode } from './exit-codes.js';

/**
 * A failure as the user sees it; also the stable `--json` shape written to standard error as
 * `{ "error": Failure }`.
 */
export interface Failure {
  /** What went wrong, starting with the operation when there is one. */
  message: string;
  /** What was being attempted, e.g. `get document "a1" of "orders"`. */
  operation?: string;
  /** What to do about it. */
  hint?: string;
  /** The API's error code (`not_found`, `insufficient_scope`, …) when the server answered. */
  code?: string;
  /** The HTTP status when the server answered. */
  status?: number;
  /** The request id to quote in a bug report. */
  requestId?: string;
  /** The `details` of the API's error body. */
  details?: unknown;
  /** The exit status of the process. */
  exitCode: ExitCode;
}

/** What the CLI knows about where a request went, so a hint can name the setting to change. */
export interface FailureContext {
  /** Where the credential came from: `--api-key`, `DATAPLATFORM_TOKEN`, `profile "default"`, … */
  credentialOrigin?: string;
  /** Whether the credential sent was an API key or a token. */
  credentialKind?: 'api-key' | 'token';
  /** The server address used, and whether nothing set it (so the built-in default was used). */
  baseUrl?: string;
  baseUrlIsDefault?: boolean;
}
