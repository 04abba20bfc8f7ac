/** A message to a user from the service (a locked sign-in, a webhook that stopped delivering, …). */
export interface NewNotification {
  id: string;
  userId: string;
  /** One of `NOTIFICATION_KINDS`. */
  kind: string;
  title: string;
  body: string;
  /** A dashboard path that shows the cause, or null. */
  link: string | null;
  /** Extra facts for the reader; no secrets. */
  data: Record<string, unknown>;
  createdAt: string;
}

/** A stored notification. */
export interface Notification extends Omit<NewNotification, 'userId'> {
  readAt: string | null;
}

/** Where a notification is in a user's list, for a stream that goes on after it. */
export interface NotificationCursor {
  createdAt: string;
  id: string;
}

/** A user's stored choice for one kind. */
export interface StoredPreference {
  kind: string;
  inApp: boolean;
  email: boolean;
}

/** A key whose expiry a task took to tell its owner. */
export interface ExpiringKey {
  keyId: string;
  ownerId: string;
  clusterId: string;
  name: string;
  expiresAt: string;
}

/** Notifications of users, newest first, and where each kind goes. */
export interface NotificationStore {
  create(notification: NewNotification): Promise<void>;
  list(
    userId: string,
    page: { limit: number; skip: number; unread?: boolean },
  ): Promise<{ rows: Notification[]; total: number; unread: number }>;
  /** The user's notifications after `cursor`, oldest first (the stream). */
  after(userId: string, cursor: NotificationCursor, limit: number): Promise<Notification[]>;
  /** The user's notification, or null (also when it is another user's). */
  find(userId: string, id: string): Promise<Notification | null>;
  /** Marks it read at `now` unless it was; false when the user has no such notification. */
  markRead(userId: string, id: string, now: string): Promise<boolean>;
  /** Marks every unread notification of the user read; returns how many. */
  markAllRead(userId: string, now: string): Promise<number>;
  /** False when the user has no such notification. */
  delete(userId: string, id: string): Promise<boolean>;
  /** The kinds the user chose channels for. */
  preferences(userId: string): Promise<StoredPreference[]>;
  setPreferences(userId: string, preferences: readonly StoredPreference[]): Promise<void>;
  /**
   * Marks the active keys expiring after `now` and at or before `before` whose expiry was not yet told, and
   * returns them: each key is taken once, by one instance.
   */
  takeExpiringKeys(before: string, now: string): Promise<ExpiringKey[]>;
}
