/** Rate-limit tiers of API keys (API.md "Rate limits"). */
export const RATE_TIERS = ['free', 'starter', 'pro', 'enterprise'] as const;

/** A rate-limit tier. */
export type RateTier = (typeof RATE_TIERS)[number];

/** Requests per minute per key, by tier; `null` is unlimited (enterprise, set by an operator only). */
export const TIER_LIMITS: Readonly<Record<RateTier, number | null>> = {
  free: 100,
  starter: 500,
  pro: 2000,
  enterprise: null,
};

/** Length of a rate-limit window in seconds: limits count requests per minute. */
export const RATE_WINDOW_SECONDS = 60;

/** The `Retry-After` of every 429 `rate_limited` answer, in seconds. */
export const RATE_LIMITED_RETRY_AFTER = 60;

/**
 * The tier of a billing account: enterprise when an operator set it; team and payg are pro; starter, or any plan
 * with an active trial, is starter; else free.
 */
export function rateTierOf(
  billing: { plan: string; trialExpiresAt: string | null; enterprise: boolean },
  now = Date.now(),
): RateTier {
  if (billing.enterprise) return 'enterprise';
  if (billing.plan === 'team' || billing.plan === 'payg') return 'pro';
  if (billing.plan === 'starter') return 'starter';
  if (billing.trialExpiresAt && Date.parse(billing.trialExpiresAt) > now) return 'starter';
  return 'free';
}
