import type { ActivityAction } from '@dataplatform/contract';
import type { ClientInfo } from '../auth/client.js';
import { ulid } from '../ids.js';
import type { ActivityRecord } from '../storage/sessions.js';
import type { Storage } from '../storage/types.js';

/** A new activity entry of the user: what happened, from where, with optional facts (never a secret). */
export function activityEntry(
  userId: string,
  action: ActivityAction,
  client: ClientInfo,
  details: Record<string, unknown> = {},
): ActivityRecord {
  return {
    id: `act_${ulid()}`,
    userId,
    action,
    createdAt: new Date().toISOString(),
    ip: client.ip,
    userAgent: client.userAgent,
    details,
  };
}

/** The activity log as the API shows it. */
export function activityAnswer(entry: ActivityRecord) {
  return {
    _id: entry.id,
    action: entry.action,
    createdAt: entry.createdAt,
    ip: entry.ip,
    userAgent: entry.userAgent,
    details: entry.details,
  };
}

/** Writes and reads users' activity logs. */
export class ActivityLog {
  constructor(private readonly storage: Storage) {}

  record(
    userId: string,
    action: ActivityAction,
    client: ClientInfo,
    details?: Record<string, unknown>,
  ): Promise<void> {
    return this.storage.sessions.addActivity(activityEntry(userId, action, client, details));
  }

  async list(userId: string, limit: number, skip: number) {
    const { rows, total } = await this.storage.sessions.listActivity(userId, { limit, skip });
    return { data: rows.map(activityAnswer), total, limit, skip };
  }
}
