import { checkAllowlistAccess } from '@dataplatform/contract';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors.js';
import type { Storage } from '../storage/types.js';
import { clientIp } from './client.js';

/**
 * A Fastify hook for sensitive account routes (the profile, the API-key routes, the allowlist itself): when the
 * signed-in user has an IP allowlist, requests from other addresses get 403 `ip_blocked`. Runs after the session
 * hook, which sets `request.session`.
 * @example app.get('/api/keys', { onRequest: [sessions.requireSession, enforceIpAllowlist(storage)] }, handler)
 */
export function enforceIpAllowlist(storage: Storage) {
  return async (request: FastifyRequest): Promise<void> => {
    const session = request.session;
    if (!session) throw new Error('enforceIpAllowlist must run after the session hook');
    const entries = await storage.accounts.ipAllowlist(session.userId);
    const blocked = checkAllowlistAccess(clientIp(request), entries);
    if (blocked) throw new ApiError(blocked.code, blocked.message, blocked.details);
  };
}
