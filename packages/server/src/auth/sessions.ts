import { randomBytes } from 'node:crypto';
import {
  type ClusterAction,
  checkBillingAllows,
  checkClusterAccess,
  rateTierOf,
} from '@dataplatform/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors.js';
import { rejectViolation } from '../http/validate.js';
import type { Storage } from '../storage/types.js';
import { KEY_PREFIX } from './api-key.js';
import type { ClientInfo } from './client.js';
import { applyRateDecision, type KeyRateLimiter } from './rate-limit.js';
import type { SessionTokens } from './session-tokens.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user's session, on routes that need one. */
    session?: SessionContext;
  }
}

/** The session a request is signed in with. */
export interface SessionContext {
  userId: string;
  sessionId: string;
  expiresAt: string;
}

/** A signed-in user on a data route: acts on one of their clusters with every data scope. */
export interface SessionPrincipal {
  kind: 'session';
  userId: string;
  sessionId: string;
  clusterId: string;
}

/** A started session: its token for the client and when it ends. */
export interface IssuedSession {
  sessionId: string;
  token: string;
  expiresAt: string;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The session token of a request: a bearer value that is not an API key, when no X-API-Key is sent. */
export function sessionTokenOf(request: FastifyRequest): string | null {
  if (request.headers['x-api-key'] !== undefined) return null;
  const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
  return token && !token.startsWith(KEY_PREFIX) ? token : null;
}

function clusterHeader(request: FastifyRequest): string | null {
  const value = request.headers['x-cluster-id'];
  if (value === undefined) return null;
  if (typeof value !== 'string' || value.trim() === '' || value.length > 128)
    throw new ApiError('validation_error', 'X-Cluster-Id must name one cluster', {
      in: 'header',
      field: 'x-cluster-id',
    });
  return value.trim();
}

/** Starts, checks and ends sessions. A session is a row in the database and a signed token that names it. */
export class Sessions {
  constructor(
    private readonly storage: Storage,
    private readonly tokens: SessionTokens,
    private readonly limiter: KeyRateLimiter,
    private readonly ttlSeconds: number,
  ) {}

  /** Starts a session of the user from this client and signs its token. */
  async start(userId: string, client: ClientInfo): Promise<IssuedSession> {
    // The account's own session lifetime (`/api/settings`), else the server's.
    const hours = (await this.storage.settings.get(userId)).sessionLifetimeHours;
    const now = new Date();
    const expiresAt = new Date(now.getTime() + (hours === null ? this.ttlSeconds : hours * 3600) * 1000);
    const sessionId = `ses_${randomBytes(16).toString('base64url')}`;
    await this.storage.sessions.create({
      id: sessionId,
      userId,
      createdAt: now.toISOString(),
      expiresAt: expiresAt.toISOString(),
      ip: client.ip,
      userAgent: client.userAgent,
    });
    const token = await this.tokens.sign({ userId, sessionId }, expiresAt);
    return { sessionId, token, expiresAt: expiresAt.toISOString() };
  }

  /** The session of a token; 401 `session_expired` when it expired or was ended, `unauthorized` otherwise. */
  async verify(token: string): Promise<SessionContext> {
    const claims = await this.tokens.verify(token);
    if (claims === 'expired') throw new ApiError('session_expired');
    if (claims === 'invalid') throw new ApiError('unauthorized', 'Invalid session token');
    const session = await this.storage.sessions.find(claims.sessionId);
    if (!session || session.userId !== claims.userId)
      throw new ApiError('unauthorized', 'Invalid session token');
    if (session.revokedAt !== null || Date.parse(session.expiresAt) <= Date.now())
      throw new ApiError('session_expired');
    return { userId: session.userId, sessionId: session.id, expiresAt: session.expiresAt };
  }

  /**
   * Fastify hook of dashboard and account routes: a valid session token or 401. API keys are refused here;
   * they are for the data routes.
   */
  readonly requireSession = async (request: FastifyRequest): Promise<void> => {
    const token = sessionTokenOf(request);
    if (token === null) {
      const sentKey =
        request.headers['x-api-key'] !== undefined ||
        BEARER.exec(request.headers.authorization ?? '')?.[1]?.startsWith(KEY_PREFIX);
      throw new ApiError(
        'unauthorized',
        sentKey
          ? 'This route needs a session token; API keys are refused. Sign in and send Authorization: Bearer <token>'
          : 'Missing credentials: sign in and send Authorization: Bearer <token>',
      );
    }
    request.session = await this.verify(token);
  };

  /**
   * A session token on a data route: the user acts on their default cluster, or on the one X-Cluster-Id names
   * when they are a member (403 `forbidden` otherwise, the same for a cluster of another user and for none at
   * all), as far as their role there allows `action` (403 `forbidden`), rate-limited per user at their plan's tier.
   */
  async authenticateData(
    token: string,
    request: FastifyRequest,
    reply: FastifyReply | undefined,
    action: ClusterAction,
  ): Promise<SessionPrincipal> {
    const claims = await this.tokens.verify(token);
    if (claims === 'expired') throw new ApiError('session_expired');
    if (claims === 'invalid') throw new ApiError('unauthorized', 'Invalid session token');
    const session = await this.storage.sessions.findForData(claims.sessionId, clusterHeader(request));
    if (!session || session.userId !== claims.userId)
      throw new ApiError('unauthorized', 'Invalid session token');
    if (session.revokedAt !== null || Date.parse(session.expiresAt) <= Date.now())
      throw new ApiError('session_expired');
    if (!session.cluster) throw new ApiError('forbidden', 'No cluster of yours has this id');
    if (session.cluster.status !== 'running') throw new ApiError('cluster_unavailable');
    const tier = session.billing ? rateTierOf(session.billing) : 'free';
    // A stream checking that its session still holds (no reply) is no request: nothing is counted.
    if (reply) applyRateDecision(reply, await this.limiter.consume(`user:${session.userId}`, tier));
    rejectViolation(checkClusterAccess(session.cluster.role, action));
    rejectViolation(checkBillingAllows(session.cluster.billingStatus, action));
    return { kind: 'session', userId: session.userId, sessionId: session.id, clusterId: session.cluster.id };
  }
}
