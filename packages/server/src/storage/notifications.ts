/** A message to a user from the service (a locked sign-in, a webhook that stopped delivering, …). */
export interface NewNotification {
  id: string;
  userId: string;
  /** Machine-readable kind, such as `signin.locked` or `webhook.delivery_failed`. */
  kind: string;
  message: string;
  /** Extra facts for the reader; no secrets. */
  data: Record<string, unknown>;
  createdAt: string;
}

/** A stored notification. */
export interface Notification extends Omit<NewNotification, 'userId'> {
  readAt: string | null;
}

/** Notifications of users, newest first. */
export interface NotificationStore {
  create(notification: NewNotification): Promise<void>;
  list(
    userId: string,
    page: { limit: number; skip: number },
  ): Promise<{ rows: Notification[]; total: number }>;
}
