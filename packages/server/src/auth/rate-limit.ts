import {
  RATE_WINDOW_SECONDS,
  type RateLimitCount,
  type RateTier,
  rateLimitHeaders,
  TIER_LIMITS,
} from '@dataplatform/contract';
import type { FastifyReply } from 'fastify';
import type { Redis } from 'ioredis';
import { ApiError } from '../http/errors.js';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from './rate-limiter-stores.js';

/** What the rate limiter decided about one request. */
export type RateDecision = RateLimitCount;

/**
 * Per-key, per-minute request counting, one limiter per tier. With Redis the counters are shared by every
 * server instance; without it they live in this process.
 */
export class KeyRateLimiter {
  private readonly limiters = new Map<RateTier, RateLimiterAbstract>();

  constructor(redis?: Redis, limits: Readonly<Record<RateTier, number | null>> = TIER_LIMITS) {
    for (const [tier, points] of Object.entries(limits) as [RateTier, number | null][]) {
      if (points === null) continue;
      const options = { points, duration: RATE_WINDOW_SECONDS, keyPrefix: `dataplatform:rl:${tier}` };
      this.limiters.set(
        tier,
        redis ? new RateLimiterRedis({ ...options, storeClient: redis }) : new RateLimiterMemory(options),
      );
    }
  }

  /** Counts one request of `keyId`; null when its tier has no limit. */
  consume(keyId: string, tier: RateTier): Promise<RateDecision> | null {
    const limiter = this.limiters.get(tier);
    if (!limiter) return null;
    // One promise per request (the library's), not an async wrapper around it: this runs on every request.
    return limiter.consume(keyId).then(
      (res) => decision(true, limiter.points, res),
      (rejection: unknown) => {
        if (rejection instanceof RateLimiterRes) return decision(false, limiter.points, rejection);
        throw rejection;
      },
    );
  }
}

function decision(allowed: boolean, limit: number, res: RateLimiterRes): RateDecision {
  return {
    allowed,
    limit,
    remaining: res.remainingPoints,
    resetSeconds: Math.ceil(res.msBeforeNext / 1000),
  };
}

/** Sends the RateLimit headers of a decision, and refuses the request (429 `rate_limited`) when it is over. */
export function applyRateDecision(reply: FastifyReply, decision: RateDecision | null): void {
  if (!decision) return;
  const headers = rateLimitHeaders(decision);
  if (!decision.allowed) throw new ApiError('rate_limited', undefined, undefined, headers);
  reply.headers(headers);
}
