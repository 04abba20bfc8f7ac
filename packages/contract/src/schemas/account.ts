import { z } from 'zod';
import { RATE_TIERS } from '../rate-limits.js';
import { Timestamp } from './common.js';

/** A person who signs in. */
export const User = z
  .object({
    _id: z.string(),
    email: z.email(),
    name: z.string(),
    createdAt: Timestamp,
  })
  .meta({ id: 'User', description: 'A user account. Never carries a password hash.' });

/** Tiers of a cluster and of rate limiting. */
export const CLUSTER_TIERS = ['free', 'starter', 'team', 'enterprise'] as const;

/** Life-cycle states of a cluster. */
export const CLUSTER_STATUSES = ['creating', 'running', 'paused', 'deleting'] as const;

/** A cluster: the unit that holds collections and that API keys belong to. */
export const Cluster = z
  .object({
    _id: z.string(),
    name: z.string(),
    region: z.string().meta({ description: 'Geographic region' }),
    tier: z.enum(CLUSTER_TIERS),
    status: z.enum(CLUSTER_STATUSES),
    createdAt: Timestamp,
    documentCount: z.number().int().min(0).meta({ description: 'Documents stored in the cluster' }),
    storageBytes: z
      .number()
      .int()
      .min(0)
      .meta({ description: "Bytes of the documents' JSON text, system fields left out" }),
  })
  .meta({ id: 'Cluster', description: 'A cluster of collections.' });

/** Plans of a billing account. */
export const PLANS = ['free', 'starter', 'team', 'payg'] as const;

/**
 * States of a billing account: `suspended` is a payg account out of credits (its data-plane writes answer 402
 * `payment_required`); `past_due` and `canceled` come from the payment provider.
 */
export const BILLING_STATUSES = ['active', 'past_due', 'suspended', 'canceled'] as const;

/** The billing side of an account. */
export const BillingAccount = z
  .object({
    _id: z.string(),
    plan: z.enum(PLANS),
    credits: z.number().int().meta({ description: 'Available credits, in cents' }),
    trialActive: z.boolean(),
    trialExpiresAt: Timestamp.nullable(),
    status: z.enum(BILLING_STATUSES),
    tier: z.enum(RATE_TIERS).meta({
      description:
        "The rate-limit tier of the account's keys: free; starter (the starter plan, or any plan during a trial); pro (team, payg); enterprise (set by an operator)",
    }),
  })
  .meta({ id: 'BillingAccount', description: 'Plan, credits and trial of an account.' });

/** A user, as answers carry it. */
export type User = z.infer<typeof User>;
/** A cluster. */
export type Cluster = z.infer<typeof Cluster>;
/** A plan of a billing account. */
export type Plan = (typeof PLANS)[number];
/** A billing account. */
export type BillingAccount = z.infer<typeof BillingAccount>;
