import type { Task } from '../maintenance.js';
import type { Notifier } from './notifier.js';

/** How long before its expiry a key's owner is told. */
export const KEY_EXPIRY_NOTICE_MS = 7 * 86_400_000;

/**
 * The periodic task that tells owners of the active keys expiring within 7 days, once per key: the store marks
 * each key as it takes it, so neither a later run nor another instance tells it again.
 */
export function keyExpiryNotices(notifier: Notifier): Task {
  return {
    name: 'notify-expiring-keys',
    everyMs: 60 * 60 * 1000,
    run: async (storage, now) => {
      const before = new Date(now.getTime() + KEY_EXPIRY_NOTICE_MS).toISOString();
      const keys = await storage.notifications.takeExpiringKeys(before, now.toISOString());
      for (const key of keys)
        await notifier.raise(key.ownerId, 'key_expiring', {
          title: 'API key expiring',
          body: `The API key "${key.name}" (${key.keyId}) expires at ${key.expiresAt}. Create a new key or rotate this one before then.`,
          link: `/api/keys/${key.keyId}`,
          data: { keyId: key.keyId, clusterId: key.clusterId, expiresAt: key.expiresAt },
        });
      return keys.length;
    },
  };
}
