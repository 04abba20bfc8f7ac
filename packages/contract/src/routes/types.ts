import type { z } from 'zod';
import type { ErrorCode } from '../errors.js';
import type { HEADERS } from '../headers.js';

/** HTTP methods the API uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Who may call a route: API key or session (`data`), session only (`session`), anyone (`public`). */
export type RouteAuth = 'data' | 'session' | 'public';

/** One route of the API, described once and read by the server, the OpenAPI generator, the mocks and the docs. */
export interface RouteDefinition {
  /** Stable operation id, `<area>.<verb>`. */
  id: string;
  method: HttpMethod;
  /** Path in OpenAPI form, e.g. `/api/v1/data/{collection}`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  auth: RouteAuth;
  /**
   * A session route behind the account's IP allowlist (403 `ip_blocked` from an address outside it), checked
   * right after the session, before the body is read: every key and robot route, as keys are what reach the data;
   * the profile; and the change of the allowlist itself, so that a stolen session cannot widen it.
   */
  ipGuarded?: true;
  /** The credential needs one of these scopes (API keys only). Empty: none needed at the route level. */
  scopes: readonly string[];
  /** How scopes are checked when the route level does not say it all (e.g. per operation); `x-scopes-note`. */
  scopeNote?: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** False when the body may be left out (every field of `body` is then optional); true by default. */
  bodyRequired?: boolean;
  /** A body read as a stream rather than parsed as JSON: its media types, each with a description. */
  streamBody?: Readonly<Record<string, string>>;
  /** Default body limit in bytes when it differs from the server-wide one (1 MiB); `x-body-limit`. */
  bodyLimit?: number;
  /**
   * Conditional requests on one document: `read` takes If-None-Match (304 when it matches), `write` takes If-Match
   * (412 `precondition_failed` when it does not).
   */
  conditional?: 'read' | 'write';
  /** Accepts an Idempotency-Key header. */
  idempotent?: boolean;
  /** Upgrades to a WebSocket: the success is 101 and `schema` the server's messages (`GET /api/v1/realtime`). */
  websocket?: true;
  success: {
    status: number;
    description: string;
    schema: z.ZodType;
    headers?: readonly (keyof typeof HEADERS)[];
    /** Media type of the success answer when it is not JSON (`text/event-stream` for a stream of `schema` items). */
    contentType?: string;
  };
  /** Route-specific error codes; the ones every authenticated route can give are added by `errorsOf`. */
  errors: readonly ErrorCode[];
}
