import { type ClusterAction, SCOPES } from '@dataplatform/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Storage } from '../storage/types.js';
import { Authenticator, type Principal } from './authenticate.js';
import type { KeyRateLimiter } from './rate-limit.js';

/**
 * No authentication, no rate limit, no usage history: every data request acts on one cluster with every scope.
 * Only for measuring what authentication costs (bench/); reachable through `startServer`'s programmatic options
 * alone, never from the environment.
 */
export class OpenAccess extends Authenticator {
  private readonly principal: Principal;

  constructor(storage: Storage, limiter: KeyRateLimiter, clusterId: string) {
    super(storage, limiter);
    this.principal = {
      kind: 'key',
      clusterId,
      key: {
        keyId: 'open-access',
        clusterId,
        clusterStatus: 'running',
        billingStatus: 'active',
        clusterRole: 'owner',
        scopes: [...SCOPES],
        status: 'active',
        expiresAt: null,
        tier: 'enterprise',
      },
    };
  }

  override async authenticate(
    _request: FastifyRequest,
    _reply: FastifyReply | undefined,
    _anyOf: readonly string[],
    _action?: ClusterAction,
  ): Promise<Principal> {
    return this.principal;
  }
}
