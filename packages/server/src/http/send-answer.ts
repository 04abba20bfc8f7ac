import {
  BatchResult,
  Document,
  ifNoneMatchHolds,
  mayReadDocuments,
  type RouteDefinition,
} from '@dataplatform/contract';
import type { FastifyReply } from 'fastify';
import { grantedScopes, type Principal } from '../auth/authenticate.js';
import { entityTag } from '../document-etag.js';
import type { Answer } from '../services/idempotency.js';
import { batchReceiptText, receiptText } from '../services/write-receipts.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** How a caller that may write but not read gets a route's answer: cut to the documents' system fields. */
function receiptOf(route: RouteDefinition): ((text: string) => string) | null {
  if (route.success.schema === Document) return receiptText;
  if (route.success.schema === BatchResult) return batchReceiptText;
  return null;
}

/**
 * Sends what a handler returned, the one place an answer leaves: JSON text as it is, an object as JSON, a write's
 * `Answer` (routes that take an Idempotency-Key) with its own status and replay header, cut to a write receipt for
 * a caller without `data:read` after any replay, so that no replay reveals more. A handler that answered on its
 * own (a stream, a redirect) returns the reply, which is left alone.
 */
export function sendAnswer(
  route: RouteDefinition,
  reply: FastifyReply,
  principal: Principal | undefined,
  result: unknown,
): FastifyReply {
  if (result === reply || reply.sent) return reply;
  const tagged = route.success.headers?.includes('etag') === true;
  if (!route.idempotent) {
    if (tagged) return sendTagged(route, reply, result as string);
    return reply.type(JSON_TYPE).code(route.success.status).send(result);
  }
  reply.type(JSON_TYPE);
  const answer = result as Answer;
  if (answer.replayed) reply.header('idempotent-replayed', 'true');
  if (tagged && answer.status < 300) reply.header('etag', entityTag(answer.body));
  const receipt = receiptOf(route);
  const cut = receipt !== null && principal !== undefined && !mayReadDocuments(grantedScopes(principal));
  return reply.code(answer.status).send(cut ? receipt(answer.body) : answer.body);
}

/**
 * A document read with its entity tag; 304 without a body when the request's If-None-Match lists that tag (the
 * caller's copy is current).
 */
function sendTagged(route: RouteDefinition, reply: FastifyReply, text: string): FastifyReply {
  const tag = entityTag(text);
  reply.header('etag', tag);
  const ifNoneMatch = reply.request.headers['if-none-match'];
  if (route.conditional === 'read' && ifNoneMatch && ifNoneMatchHolds(ifNoneMatch, tag))
    return reply.code(304).send();
  return reply.type(JSON_TYPE).code(route.success.status).send(text);
}
