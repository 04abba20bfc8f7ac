import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateTier } from '../storage/types.js';
import { TIER_LIMITS } from './tiers.js';

/** What the rate limiter decided about one request. */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until capacity returns. */
  resetSeconds: number;
}

/** Per-key, per-minute request counting, one limiter per tier. */
export class KeyRateLimiter {
  private readonly limiters = new Map<RateTier, RateLimiterMemory>();

  constructor() {
    for (const [tier, points] of Object.entries(TIER_LIMITS) as [RateTier, number | null][]) {
      if (points !== null)
        this.limiters.set(tier, new RateLimiterMemory({ points, duration: 60, keyPrefix: `rl:${tier}` }));
    }
  }

  /** Counts one request of `keyId`; null when its tier has no limit. */
  async consume(keyId: string, tier: RateTier): Promise<RateDecision | null> {
    const limiter = this.limiters.get(tier);
    if (!limiter) return null;
    try {
      const res = await limiter.consume(keyId);
      return decision(true, limiter.points, res);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return decision(false, limiter.points, rejection);
      throw rejection;
    }
  }
}

function decision(allowed: boolean, limit: number, res: RateLimiterRes): RateDecision {
  return {
    allowed,
    limit,
    remaining: Math.max(0, res.remainingPoints),
    resetSeconds: Math.ceil(res.msBeforeNext / 1000),
  };
}
