import type { RouteDefinition } from '@dataplatform/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Principal } from '../auth/authenticate.js';
import type { IdempotencyContext } from '../services/idempotency.js';

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

/** The body a handler gets: none for a streamed body, the text for a body parsed later, else the checked value. */
type BodyOf<R extends RouteDefinition> = R extends { streamBody: object }
  ? undefined
  : R extends { bodyLimit: number }
    ? string
    : R extends { body: infer S }
      ? Output<S>
      : undefined;

/** One request of a contract route, its path, query and body already checked against the route's schemas. */
export interface RouteCall<R extends RouteDefinition = RouteDefinition> {
  request: FastifyRequest;
  reply: FastifyReply;
  params: R extends { params: infer S } ? Output<S> : undefined;
  query: R extends { query: infer S } ? Output<S> : undefined;
  body: BodyOf<R>;
  /** The caller of a data route (API key or session); undefined on other routes. */
  principal: R extends { auth: 'data' } ? Principal : undefined;
  /** The Idempotency-Key of a route that takes one, with the request's fingerprint; null when none was sent. */
  idempotency: IdempotencyContext | null;
}

/**
 * A route's work. It returns the answer's body: an object (sent as JSON), JSON text, a write's `Answer` (on
 * routes that take an Idempotency-Key), or the reply itself when it answered on its own (a redirect, a stream).
 */
export type RouteHandler<R extends RouteDefinition = RouteDefinition> = (call: RouteCall<R>) => unknown;

/** One handler per route of a contract table, keyed by operation id. */
export type RouteHandlers<Table extends readonly RouteDefinition[]> = {
  [R in Table[number] as R['id']]: RouteHandler<R>;
};
