import {
  NOTIFICATION_KINDS,
  type NotificationChannels,
  type NotificationKind,
  type NotificationPreferences,
} from '../schemas/notification.js';

/**
 * Where a kind goes when its user chose nothing: every kind in the app; by e-mail only a locked sign-in, which the
 * owner may not see in the app when someone else is trying the password.
 */
export function defaultChannels(kind: NotificationKind): NotificationChannels {
  return { inApp: true, email: kind === 'account_locked' };
}

/** Every kind's channels: the stored choices over the defaults. Stored kinds no longer known are left out. */
export function preferencesWith(
  stored: readonly ({ kind: string } & NotificationChannels)[],
): NotificationPreferences {
  const chosen = new Map(stored.map((p) => [p.kind, { inApp: p.inApp, email: p.email }]));
  return Object.fromEntries(
    NOTIFICATION_KINDS.map((kind) => [kind, chosen.get(kind) ?? defaultChannels(kind)]),
  ) as NotificationPreferences;
}
