import { BatchResult, Document, mayReadDocuments, type RouteDefinition } from '@dataplatform/contract';
import type { FastifyReply } from 'fastify';
import { grantedScopes, type Principal } from '../auth/authenticate.js';
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
  reply.type(JSON_TYPE);
  if (!route.idempotent) return reply.code(route.success.status).send(result);
  const answer = result as Answer;
  if (answer.replayed) reply.header('idempotent-replayed', 'true');
  const receipt = receiptOf(route);
  const cut = receipt !== null && principal !== undefined && !mayReadDocuments(grantedScopes(principal));
  return reply.code(answer.status).send(cut ? receipt(answer.body) : answer.body);
}
