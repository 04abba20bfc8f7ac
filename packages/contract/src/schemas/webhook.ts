import { z } from 'zod';
import { Timestamp } from './common.js';
import { CollectionName } from './document.js';

/** Event kinds a subscription can name; `*` stands for all. */
export const WEBHOOK_EVENTS = ['document.created', 'document.updated', 'document.deleted', '*'] as const;

/** Request to create a webhook subscription. */
export const WebhookCreate = z
  .object({
    url: z.url({ protocol: /^https?$/ }).meta({ description: 'Absolute http or https delivery address' }),
    events: z.array(z.enum(WEBHOOK_EVENTS)).min(1),
    collection: CollectionName.optional().meta({
      description: 'Restricts the subscription to one collection',
    }),
    secret: z
      .string()
      .min(16)
      .max(128)
      .optional()
      .meta({ description: 'Signing secret; generated (whsec_…) when left out' }),
  })
  .meta({ id: 'WebhookCreate', description: 'A new webhook subscription.' });

/** A stored webhook subscription (the secret is returned only at creation). */
export const WebhookSubscription = z
  .object({
    _id: z.string(),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENTS)),
    collection: z.string().nullable(),
    active: z.boolean(),
    createdAt: Timestamp,
    secret: z.string().optional().meta({ description: 'Only in the answer to creation' }),
  })
  .meta({ id: 'WebhookSubscription', description: 'A webhook subscription.' });
