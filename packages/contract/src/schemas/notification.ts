import { z } from 'zod';
import { fromQuery, listEnvelope, Timestamp } from './common.js';

/** What a notification is about; each kind is raised by the part of the server that knows of it. */
export const NOTIFICATION_KINDS = [
  'account_locked',
  'new_sign_in',
  'webhook_failing',
  'webhook_disabled',
  'key_expiring',
  'trial_ending',
  'usage_limit',
  'backup_failed',
  'function_failing',
] as const;

/** A kind of notification. */
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** One notification of the signed-in user. */
export const Notification = z
  .object({
    _id: z.string(),
    kind: z.enum(NOTIFICATION_KINDS),
    title: z.string(),
    body: z.string(),
    link: z.string().nullable().meta({ description: 'A path of the dashboard that shows the cause, if any' }),
    createdAt: Timestamp,
    readAt: Timestamp.nullable(),
  })
  .meta({ id: 'Notification', description: 'A message from the service to the signed-in user.' });

/** One page of notifications, newest first, with the user's unread count. */
export const NotificationList = listEnvelope(Notification, 'NotificationPage')
  .extend({
    unread: z
      .number()
      .int()
      .min(0)
      .meta({ description: 'Unread notifications of the user, whatever the filter' }),
  })
  .meta({
    id: 'NotificationList',
    description: 'One page of notifications with the total and unread counts.',
  });

/** Query of the notification list. */
export const NotificationQuery = z.object({
  unread: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional()
    .meta({ description: '`true` lists only the unread notifications' }),
  limit: fromQuery(
    z.coerce.number().int().min(1).max(1000).default(50).meta({ description: 'Page size, 1 to 1000' }),
  ),
  skip: fromQuery(z.coerce.number().int().min(0).default(0).meta({ description: 'Entries to skip' })),
});

/** Path of one notification. */
export const NotificationParams = z.object({ id: z.string().min(1).max(128) });

/** Where one kind of notification goes. */
export const NotificationChannels = z.strictObject({
  inApp: z.boolean().meta({ description: 'Listed in the app and sent on the stream' }),
  email: z.boolean().meta({ description: "Sent by e-mail to the account's address" }),
});

const channelsOfEveryKind = Object.fromEntries(
  NOTIFICATION_KINDS.map((kind) => [kind, NotificationChannels]),
);

/** Every kind's channels. */
export const NotificationPreferences = z
  .strictObject(channelsOfEveryKind as Record<NotificationKind, typeof NotificationChannels>)
  .meta({ id: 'NotificationPreferences', description: 'Where each kind of notification goes.' });

/** A change of preferences: the kinds named are replaced, the others stay. */
export const NotificationPreferencesUpdate = z
  .strictObject(
    Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, NotificationChannels.optional()])) as Record<
      NotificationKind,
      z.ZodOptional<typeof NotificationChannels>
    >,
  )
  .meta({
    id: 'NotificationPreferencesUpdate',
    description: 'The kinds to change, each with both channels; kinds left out keep their preference.',
  });

/** Answer of read-all. */
export const NotificationsRead = z
  .object({ read: z.number().int().min(0).meta({ description: 'Notifications marked read by this call' }) })
  .meta({ id: 'NotificationsRead', description: 'How many notifications were marked read.' });

export type Notification = z.infer<typeof Notification>;
export type NotificationList = z.infer<typeof NotificationList>;
export type NotificationPreferences = z.infer<typeof NotificationPreferences>;
export type NotificationChannels = z.infer<typeof NotificationChannels>;
export type NotificationPreferencesUpdate = z.infer<typeof NotificationPreferencesUpdate>;
export type NotificationsRead = z.infer<typeof NotificationsRead>;
