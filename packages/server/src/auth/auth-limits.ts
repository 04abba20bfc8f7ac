import type { Redis } from 'ioredis';
import type { AuthLimits } from '../config.js';
import { ApiError } from '../http/errors.js';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from './rate-limiter-stores.js';

/** The routes limited per client address. */
export type LimitedAction = 'signin' | 'signup' | 'reset';

// Failures in a row are remembered this long; a success forgets them at once.
const FAILURE_MEMORY_SECONDS = 24 * 3600;

/** What a failed sign-in did to its (e-mail, address) pair. */
export interface FailureOutcome {
  /** Failures in a row so far, this one included. */
  failures: number;
  /** True when this failure locked the pair. */
  lockedNow: boolean;
}

/** Extra wait before answering a failed sign-in: none for the first two, then 250 ms doubling up to 2 s. */
export function slowdownMs(failures: number): number {
  return failures < 3 ? 0 : Math.min(2000, 250 * 2 ** (failures - 3));
}

function retryAfter(res: RateLimiterRes): number {
  return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
}

/**
 * Per-address limits of sign-in, sign-up and reset requests, and the lock of an (e-mail, address) pair after
 * repeated failed sign-ins. Counters are in Redis when it is configured, so every instance counts together.
 * A limit of 0 turns that limit off.
 */
export class AuthLimiter {
  private readonly perAddress = new Map<LimitedAction, RateLimiterAbstract>();
  private readonly failures: RateLimiterAbstract | undefined;

  constructor(
    private readonly limits: AuthLimits,
    redis?: Redis,
  ) {
    const make = (keyPrefix: string, points: number, duration: number) =>
      redis
        ? new RateLimiterRedis({ storeClient: redis, keyPrefix, points, duration })
        : new RateLimiterMemory({ keyPrefix, points, duration });
    const windows: [LimitedAction, number, number][] = [
      ['signin', limits.signinsPerMinute, 60],
      ['signup', limits.signupsPerHour, 3600],
      ['reset', limits.resetRequestsPerHour, 3600],
    ];
    for (const [action, points, duration] of windows) {
      if (points > 0) this.perAddress.set(action, make(`dataplatform:auth:${action}`, points, duration));
    }
    if (limits.lockAfterFailures > 0)
      this.failures = make('dataplatform:auth:failures', limits.lockAfterFailures, FAILURE_MEMORY_SECONDS);
  }

  /** Counts one request of `action` from `ip`; 429 `rate_limited` with Retry-After when the address is over. */
  async consume(action: LimitedAction, ip: string): Promise<void> {
    const limiter = this.perAddress.get(action);
    if (!limiter) return;
    try {
      await limiter.consume(ip);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      throw new ApiError('rate_limited', `Too many ${action} requests from this address`, undefined, {
        'retry-after': retryAfter(rejection),
      });
    }
  }

  /** 429 `rate_limited` with Retry-After while the pair is locked. */
  async checkLock(email: string, ip: string): Promise<void> {
    if (!this.failures) return;
    const res = await this.failures.get(pairKey(email, ip));
    if (res && res.consumedPoints >= this.limits.lockAfterFailures) {
      throw new ApiError(
        'rate_limited',
        'Sign-in for this e-mail from this address is locked after repeated failures',
        undefined,
        { 'retry-after': retryAfter(res) },
      );
    }
  }

  /** Counts a failed sign-in of the pair; the failure that reaches the limit locks the pair for `lockMinutes`. */
  async recordFailure(email: string, ip: string): Promise<FailureOutcome> {
    if (!this.failures) return { failures: 0, lockedNow: false };
    const key = pairKey(email, ip);
    const res = await this.failures.penalty(key, 1);
    const lockedNow = res.consumedPoints >= this.limits.lockAfterFailures;
    if (lockedNow) await this.failures.block(key, this.limits.lockMinutes * 60);
    return { failures: res.consumedPoints, lockedNow };
  }

  /** A successful sign-in ends the run of failures of its pair. */
  async recordSuccess(email: string, ip: string): Promise<void> {
    await this.failures?.delete(pairKey(email, ip));
  }
}

function pairKey(email: string, ip: string): string {
  return `${email}|${ip}`;
}
