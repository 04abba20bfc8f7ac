import { normalizeAddress } from '@dataplatform/contract';
import type { FastifyRequest } from 'fastify';

/** Where a request comes from, as the activity log and the allowlist see it. */
export interface ClientInfo {
  /** The client address: IPv4-mapped IPv6 written as IPv4; X-Forwarded-For counts only from trusted proxies. */
  ip: string;
  userAgent: string | null;
}

/** The client of a request; Fastify's `trustProxy` (DATAPLATFORM_TRUSTED_PROXIES) already decided `request.ip`. */
export function clientOf(request: FastifyRequest): ClientInfo {
  const agent = request.headers['user-agent'];
  return {
    ip: clientIp(request),
    userAgent: typeof agent === 'string' && agent !== '' ? agent.slice(0, 512) : null,
  };
}

/** The client address of a request, normalised. */
export function clientIp(request: FastifyRequest): string {
  return normalizeAddress(request.ip)?.toString() ?? request.ip;
}
