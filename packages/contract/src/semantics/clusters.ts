import type { Plan } from '../schemas/account.js';
import { CLUSTER_TIERS } from '../schemas/account.js';
import type { Violation } from './documents.js';

/** A cluster tier. */
export type ClusterTier = (typeof CLUSTER_TIERS)[number];

/** How many clusters a plan allows its user to own; null: no limit (enterprise accounts). */
export const CLUSTER_ALLOWANCE: Readonly<Record<Plan, number>> = { free: 1, starter: 3, team: 10, payg: 10 };

/** The highest tier a cluster of each plan may have; enterprise accounts may have any. */
const TOP_TIER: Readonly<Record<Plan, ClusterTier>> = {
  free: 'free',
  starter: 'starter',
  team: 'team',
  payg: 'team',
};

/** What limits an account: its plan, or none when it is an enterprise account. */
export interface PlanOfAccount {
  plan: Plan;
  enterprise: boolean;
}

/** 403 `plan_limit` when the account already owns as many clusters as its plan allows. */
export function checkClusterAllowance(account: PlanOfAccount, owned: number): Violation | null {
  if (account.enterprise) return null;
  const allowed = CLUSTER_ALLOWANCE[account.plan];
  if (owned < allowed) return null;
  return {
    code: 'plan_limit',
    message: `The ${account.plan} plan allows ${allowed} cluster${allowed === 1 ? '' : 's'}`,
    details: { plan: account.plan, limit: allowed, owned },
  };
}

/** 403 `plan_limit` when `tier` is above the highest tier the account's plan allows. */
export function checkTierAllowed(account: PlanOfAccount, tier: ClusterTier): Violation | null {
  if (account.enterprise) return null;
  const top = TOP_TIER[account.plan];
  if (CLUSTER_TIERS.indexOf(tier) <= CLUSTER_TIERS.indexOf(top)) return null;
  return {
    code: 'plan_limit',
    message: `The ${account.plan} plan allows clusters up to the ${top} tier`,
    details: { plan: account.plan, tier, highestTier: top },
  };
}

/** The tier a new cluster gets when none is asked for: the highest its plan allows. */
export function defaultTier(account: PlanOfAccount): ClusterTier {
  return account.enterprise ? 'enterprise' : TOP_TIER[account.plan];
}

/** 400 `validation_error` when `region` is not one the server offers. */
export function checkRegion(region: string, regions: readonly string[]): Violation | null {
  if (regions.includes(region)) return null;
  return {
    code: 'validation_error',
    message: `Invalid body field "region": unknown region "${region}"; one of ${regions.join(', ')}`,
    details: { in: 'body', field: 'region', regions },
  };
}

/** The cluster is unknown to the caller: not theirs, deleted, or never there. */
export function clusterNotFound(id: string): Violation {
  return { code: 'not_found', message: `Cluster "${id}" not found`, details: { id } };
}
