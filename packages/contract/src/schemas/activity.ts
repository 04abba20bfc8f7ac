import { z } from 'zod';
import { fromQuery, listEnvelope, Timestamp } from './common.js';

/** What an activity entry records. */
export const ACTIVITY_ACTIONS = [
  'signup',
  'signin',
  'signin.failed',
  'signin.new_address',
  'signin.locked',
  'logout',
  'logout_all',
  'plan.selected',
  'password.reset_requested',
  'password.reset',
  'ip_allowlist.updated',
  'identity.linked',
  'passkey.added',
  'passkey.removed',
  'billing.trial_ending',
  'billing.trial_ended',
  'billing.suspended',
  'billing.credits_added',
  'billing.subscribed',
  'billing.subscription_ended',
  'billing.payment_failed',
  'billing.payment_succeeded',
  // Named as the notification kind of API.md: a function of the owner's cluster failed FUNCTION_LIMITS.failingStreak
  // times in a row.
  'function_failing',
] as const;

/** An action of the activity log. */
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

/** One entry of a user's activity log. */
export const ActivityEntry = z
  .object({
    _id: z.string(),
    action: z.enum(ACTIVITY_ACTIONS),
    createdAt: Timestamp,
    ip: z.string().meta({
      description:
        'Client address of the request; empty for what the server noticed on its own (`function_failing`)',
    }),
    userAgent: z.string().nullable(),
    details: z.record(z.string(), z.unknown()).meta({ description: 'Facts of the action, such as the plan' }),
  })
  .meta({
    id: 'ActivityEntry',
    description: 'Something that happened to an account, with when and from where.',
  });

/** One page of the activity log, newest first. */
export const ActivityList = listEnvelope(ActivityEntry, 'ActivityList');

/** Query of the activity log. */
export const ActivityQuery = z.object({
  limit: fromQuery(
    z.coerce.number().int().min(1).max(1000).default(50).meta({ description: 'Page size, 1 to 1000' }),
  ),
  skip: fromQuery(z.coerce.number().int().min(0).default(0).meta({ description: 'Entries to skip' })),
});

/** An entry of the activity log. */
export type ActivityEntry = z.infer<typeof ActivityEntry>;
