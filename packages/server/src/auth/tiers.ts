import type { RateTier } from '../storage/types.js';

/** Requests per minute per key, by tier (API.md); `null` is unlimited. */
export const TIER_LIMITS: Readonly<Record<RateTier, number | null>> = {
  free: 100,
  starter: 500,
  pro: 2000,
  enterprise: null,
};

/** The rate-limit tier of a billing account: enterprise when an operator set it, then plan and trial. */
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
