import { createHash } from 'node:crypto';
import { checkIdempotencyKey, IDEMPOTENCY_WINDOW_MS, idempotencySubject } from '@dataplatform/contract';
import { storedText } from '../document-text.js';
import { ApiError } from '../http/errors.js';
import { rejectViolation } from '../http/validate.js';
import type { OperationResult } from '../storage/documents.js';
import type { IdempotencyRecord, IdempotencyRecordInput } from '../storage/idempotency.js';
import type { Storage } from '../storage/types.js';

/** The answer of a write, as JSON text. */
export interface Answer {
  status: number;
  body: string;
  replayed: boolean;
  /** Id of the document a create stored (or stored earlier, on a replay). */
  id?: string;
}

/** A write's Idempotency-Key with the fingerprint of the request it came with. */
export interface IdempotencyContext {
  clusterId: string;
  key: string;
  fingerprint: string;
  notBefore: string;
}

/** Reads the Idempotency-Key header of a write; null when absent. */
export function idempotencyContext(
  clusterId: string,
  header: string | string[] | undefined,
  method: string,
  path: string,
  rawBody: string,
): IdempotencyContext | null {
  rejectViolation(checkIdempotencyKey(header));
  if (header === undefined) return null;
  const fingerprint = createHash('sha256')
    .update(idempotencySubject(method, path, rawBody))
    .digest('base64url');
  return {
    clusterId,
    key: header as string,
    fingerprint,
    notBefore: new Date(Date.now() - IDEMPOTENCY_WINDOW_MS).toISOString(),
  };
}

/** A single-document write's answer: the text of what its one operation stored. */
function singleAnswer(results: readonly OperationResult[]): string {
  const [first] = results;
  if (!first?.ok) throw new Error('a failed write has no answer to record');
  return storedText(first);
}

/** The record a write should store with itself; `answer` composes its text (a single write's by default). */
export function recordInput(
  context: IdempotencyContext,
  status: number,
  answer: IdempotencyRecordInput['answer'] = singleAnswer,
): IdempotencyRecordInput {
  return {
    key: context.key,
    fingerprint: context.fingerprint,
    status,
    expiredBefore: context.notBefore,
    answer,
  };
}

/** The earlier answer to replay, null when the key is new; 409 when the key was used for another request. */
export async function findReplay(
  storage: Storage,
  context: IdempotencyContext,
): Promise<IdempotencyRecord | null> {
  const found = await storage.idempotency.find(context.clusterId, context.key, context.notBefore);
  if (found && found.fingerprint !== context.fingerprint) throw new ApiError('idempotency_mismatch');
  return found;
}

/** The earlier answer of this key to replay, or null when the key is new. */
export async function replayOf(storage: Storage, context: IdempotencyContext): Promise<Answer | null> {
  const earlier = await findReplay(storage, context);
  return earlier && { status: earlier.status, body: earlier.body, replayed: true };
}

/** After a write lost the race for its key: the answer of the request that committed first. */
export async function replayAfterRace(storage: Storage, context: IdempotencyContext): Promise<Answer> {
  const earlier = await replayOf(storage, context);
  if (!earlier) throw new ApiError('conflict', 'A request with this Idempotency-Key is in progress');
  return earlier;
}
