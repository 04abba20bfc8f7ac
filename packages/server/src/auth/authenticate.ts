import {
  type ClusterAction,
  checkBillingAllows,
  checkClusterAccess,
  effectiveScopes,
  keyHasExpired,
  SCOPES,
  satisfiesScope,
} from '@dataplatform/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors.js';
import { rejectViolation } from '../http/validate.js';
import type { KeyPrincipal } from '../storage/keys.js';
import type { Storage } from '../storage/types.js';
import { KEY_PREFIX } from './api-key.js';
import { KeyVerifier } from './key-verifier.js';
import { applyRateDecision, type KeyRateLimiter } from './rate-limit.js';
import { type SessionPrincipal, type Sessions, sessionTokenOf } from './sessions.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller of a data route. */
    principal?: Principal;
  }
}

/** Who is calling a data route: an API key, or a signed-in user (see `auth/sessions.ts`). */
export type Principal = ApiKeyPrincipal | SessionPrincipal;

/** A data route called with an API key. */
export interface ApiKeyPrincipal {
  kind: 'key';
  key: KeyPrincipal;
  clusterId: string;
}

const EVERY_SCOPE = effectiveScopes(SCOPES);

/** The scopes a principal holds: a key's own (aliases resolved), or every scope for a signed-in user. */
export function grantedScopes(principal: Principal): Set<string> {
  return principal.kind === 'session' ? EVERY_SCOPE : effectiveScopes(principal.key.scopes);
}

function presentedKey(request: FastifyRequest): string | null {
  const header = request.headers['x-api-key'];
  if (typeof header === 'string' && header !== '') return header;
  const authorization = request.headers.authorization;
  if (authorization?.startsWith('Bearer ')) {
    const token = authorization.slice(7).trim();
    if (token.startsWith(KEY_PREFIX)) return token;
    throw new ApiError('unauthorized', 'Invalid or expired session token');
  }
  return null;
}

// A key's effective scopes, worked out once per scopes list (storage engines that cache keys return the same list).
const effectiveByList = new WeakMap<readonly string[], Set<string>>();

function effectiveOf(scopes: readonly string[]): Set<string> {
  let effective = effectiveByList.get(scopes);
  if (!effective) {
    effective = effectiveScopes(scopes);
    effectiveByList.set(scopes, effective);
  }
  return effective;
}

/**
 * Checks the credential of a data route, its scopes, the role its user holds in the cluster (`checkClusterAccess`
 * of the contract, for `action`) and its rate limit; sets the RateLimit headers.
 */
export class Authenticator {
  private readonly keys: KeyVerifier;

  constructor(
    storage: Storage,
    private readonly limiter: KeyRateLimiter,
    private readonly sessions?: Sessions,
    /** False only in the cluster-checks benchmark (`ServerOptions.clusterChecks`). */
    private readonly clusterChecks = true,
  ) {
    this.keys = new KeyVerifier(storage);
  }

  /**
   * The principal of the request, or the ApiError that refuses it. Without `reply` (a long-lived stream checking
   * that its credential still holds) nothing is counted against the rate limit.
   */
  async authenticate(
    request: FastifyRequest,
    reply: FastifyReply | undefined,
    anyOf: readonly string[],
    action: ClusterAction = 'read',
  ): Promise<Principal> {
    const sessionToken = this.sessions ? sessionTokenOf(request) : null;
    if (sessionToken !== null) return this.sessions!.authenticateData(sessionToken, request, reply, action);
    const presented = presentedKey(request);
    if (presented === null)
      throw new ApiError('unauthorized', 'Missing credentials: send X-API-Key or Authorization: Bearer');
    const stored = this.keys.recall(presented) ?? (await this.keys.verify(presented));
    // A key whose owner has left the cluster is as unknown as a deleted one.
    if (!stored || (this.clusterChecks && stored.clusterRole === null))
      throw new ApiError('unauthorized', 'Invalid API key');
    // A known key from here on: whatever the answer, it goes into the key's usage history (auth/usage-hook.ts).
    request.usageKeyId = stored.keyId;
    request.usageClusterId = stored.clusterId;
    if (stored.status === 'paused') throw new ApiError('key_paused');
    if (keyHasExpired(stored.expiresAt, Date.now())) throw new ApiError('key_expired');
    if (this.clusterChecks && stored.clusterStatus !== 'running') throw new ApiError('cluster_unavailable');
    // Counted before the scope check, so that every answer after authentication carries the RateLimit headers.
    const counted = reply && this.limiter.consume(stored.keyId, stored.tier);
    if (counted) applyRateDecision(reply, await counted);
    if (!satisfiesScope(effectiveOf(stored.scopes), anyOf)) {
      throw new ApiError('insufficient_scope', undefined, { required: anyOf });
    }
    // A key can do no more than its owner's role in the cluster allows now (a demoted member's keys follow).
    if (this.clusterChecks) rejectViolation(checkClusterAccess(stored.clusterRole!, action));
    // Reads still work for a suspended account, so that its owner can see and take out their data.
    rejectViolation(checkBillingAllows(stored.billingStatus, action));
    return { kind: 'key', key: stored, clusterId: stored.clusterId };
  }
}
