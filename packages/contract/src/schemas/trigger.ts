import { z } from 'zod';
import { fromQuery, label, listEnvelope, Timestamp } from './common.js';
import { CollectionName } from './document.js';
import { WEBHOOK_EVENTS } from './webhook.js';

/** A trigger fired by document changes: the webhook event names, optionally of one collection. */
export const DocumentSource = z
  .strictObject({
    type: z.literal('document'),
    events: z.array(z.enum(WEBHOOK_EVENTS)).min(1),
    collection: CollectionName.optional().meta({
      description: 'Only this collection; every one when left out',
    }),
  })
  .meta({
    id: 'DocumentSource',
    description: "Runs once per matching document event of the trigger's cluster.",
  });

/** A trigger fired by a clock. */
export const ScheduleSource = z
  .strictObject({
    type: z.literal('schedule'),
    cron: z.string().min(1).max(128).meta({
      description:
        'A cron expression of 5 or 6 fields (seconds first when 6), or a nickname such as `@hourly`; an invalid one is 400 `validation_error`',
      example: '0 */5 * * * *',
    }),
    timezone: z.string().min(1).max(64).optional().meta({
      description: 'An IANA time zone the expression is read in; UTC when left out',
      example: 'Europe/Berlin',
    }),
  })
  .meta({ id: 'ScheduleSource', description: 'Runs once per tick of a cron expression, in one instance.' });

/** What fires a trigger. */
export const TriggerSource = z.discriminatedUnion('type', [DocumentSource, ScheduleSource]);

/** What a trigger runs: one function or one webhook subscription of the same cluster. */
export const TriggerTarget = z.union([
  z.strictObject({ function: z.string().min(1).max(128) }),
  z.strictObject({ webhook: z.string().min(1).max(128) }),
]);

/** Request to create a trigger. */
export const TriggerCreate = z
  .strictObject({
    name: label(100),
    source: TriggerSource,
    target: TriggerTarget,
    active: z.boolean().optional().meta({ description: 'True by default; a paused trigger fires nothing' }),
    clusterId: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .meta({ description: "The trigger's cluster; the target's when left out" }),
  })
  .meta({ id: 'TriggerCreate', description: 'A new trigger.' });

/** Request to change a trigger; fields left out stay. */
export const TriggerUpdate = z
  .strictObject({
    name: label(100).optional(),
    source: TriggerSource.optional(),
    target: TriggerTarget.optional(),
    active: z.boolean().optional(),
  })
  .meta({ id: 'TriggerUpdate', description: 'What to change in a trigger.' });

/** A trigger. */
export const Trigger = z
  .object({
    _id: z.string(),
    name: z.string(),
    clusterId: z.string(),
    source: TriggerSource,
    target: TriggerTarget,
    active: z.boolean(),
    createdAt: Timestamp,
    lastRunAt: Timestamp.nullable(),
  })
  .meta({ id: 'Trigger', description: 'Runs a function or a webhook on document events or on a schedule.' });

/** One page of triggers. */
export const TriggerList = listEnvelope(Trigger, 'TriggerList');

/** Query of the trigger list. */
export const TriggerListQuery = z.object({
  clusterId: z.string().min(1).max(128).optional().meta({ description: 'Only the triggers of this cluster' }),
  limit: fromQuery(z.coerce.number().int().min(1).max(1000).default(50)),
  skip: fromQuery(z.coerce.number().int().min(0).default(0)),
});

/** Path of a trigger route. */
export const TriggerParams = z.object({ id: z.string().min(1).max(128) });

/** One run of a trigger. */
export const TriggerRun = z
  .object({
    _id: z.string(),
    triggerId: z.string(),
    status: z.enum(['queued', 'ok', 'error']),
    startedAt: Timestamp,
    durationMs: z.number().min(0).nullable(),
    event: z
      .unknown()
      .nullable()
      .meta({ description: 'The input the target got: an event, `{ manual }` or `{ scheduledAt }`' }),
    error: z.string().nullable(),
  })
  .meta({ id: 'TriggerRun', description: 'One run of a trigger and how it ended.' });

/** One page of runs, newest first. */
export const TriggerRunList = listEnvelope(TriggerRun, 'TriggerRunList');

/** A request to create a trigger. */
export type TriggerCreate = z.input<typeof TriggerCreate>;
/** A change of a trigger. */
export type TriggerUpdate = z.input<typeof TriggerUpdate>;
/** A trigger. */
export type Trigger = z.infer<typeof Trigger>;
/** What fires a trigger. */
export type TriggerSource = z.infer<typeof TriggerSource>;
/** What a trigger runs. */
export type TriggerTarget = z.infer<typeof TriggerTarget>;
/** One run of a trigger. */
export type TriggerRun = z.infer<typeof TriggerRun>;
