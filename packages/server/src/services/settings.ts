import { allowlistUpdate, type Settings, type SettingsPatch } from '@dataplatform/contract';
import type { ClientInfo } from '../auth/client.js';
import { ApiError } from '../http/errors.js';
import type { SettingsChange } from '../storage/settings.js';
import type { Storage } from '../storage/types.js';
import type { ActivityLog } from './activity.js';

/** Account settings: the IP allowlist, the name, the time zone, the session lifetime and the default cluster. */
export class SettingsService {
  constructor(
    private readonly storage: Storage,
    private readonly activity: ActivityLog,
    /** The server's session lifetime (`DATAPLATFORM_SESSION_TTL`), for accounts that chose none. */
    private readonly defaultSessionSeconds: number,
  ) {}

  async ipAllowlist(userId: string, client: ClientInfo) {
    return { entries: await this.storage.accounts.ipAllowlist(userId), clientIp: client.ip };
  }

  /**
   * Replaces the allowlist, unless it would lock out the address of the change (`allowlistUpdate`); a password
   * reset clears the list when an address changes later.
   */
  async setIpAllowlist(userId: string, requested: readonly string[], client: ClientInfo) {
    const entries = allowlistUpdate(requested, client.ip);
    if (!Array.isArray(entries)) throw new ApiError(entries.code, entries.message, entries.details);
    await this.storage.accounts.setIpAllowlist(userId, entries, new Date().toISOString());
    await this.activity.record(userId, 'ip_allowlist.updated', client, { entries });
    return { entries, clientIp: client.ip };
  }

  /** The settings as `GET /api/settings` answers them. */
  async get(userId: string): Promise<Settings> {
    const [user, stored, ipAllowlist] = await Promise.all([
      this.storage.accounts.findUser(userId),
      this.storage.settings.get(userId),
      this.storage.accounts.ipAllowlist(userId),
    ]);
    if (!user) throw new ApiError('unauthorized', 'Invalid session token');
    return {
      account: { name: user.name, timezone: stored.timezone ?? 'UTC' },
      security: {
        ipAllowlist,
        sessionLifetimeHours: stored.sessionLifetimeHours ?? this.defaultHours(),
      },
      data: { defaultClusterId: stored.defaultClusterId },
    };
  }

  /** Applies a merge patch, checked as a whole first: nothing changes when any part is refused. */
  async update(userId: string, patch: SettingsPatch, client: ClientInfo): Promise<Settings> {
    const change: SettingsChange = {};
    if (patch.account?.name !== undefined) change.name = patch.account.name;
    if (patch.account?.timezone !== undefined) change.timezone = patch.account.timezone;
    if (patch.security?.sessionLifetimeHours !== undefined)
      change.sessionLifetimeHours = patch.security.sessionLifetimeHours;
    const allowlist = patch.security?.ipAllowlist;
    if (allowlist !== undefined) {
      const entries = allowlistUpdate(allowlist, client.ip);
      if (!Array.isArray(entries))
        throw new ApiError(entries.code, entries.message.replace('"entries"', '"security.ipAllowlist"'), {
          ...(entries.details as object),
          field: 'security.ipAllowlist',
        });
      change.ipAllowlist = entries;
    }
    const clusterId = patch.data?.defaultClusterId;
    if (clusterId !== undefined) {
      if (clusterId !== null && !(await this.storage.settings.isMember(userId, clusterId)))
        throw new ApiError(
          'validation_error',
          'Invalid body field "data.defaultClusterId": you are not a member of a cluster with this id',
          { in: 'body', field: 'data.defaultClusterId' },
        );
      change.defaultClusterId = clusterId;
    }
    if (Object.keys(change).length > 0) {
      await this.storage.settings.update(userId, change, new Date().toISOString());
      if (change.ipAllowlist !== undefined)
        await this.activity.record(userId, 'ip_allowlist.updated', client, { entries: change.ipAllowlist });
    }
    return this.get(userId);
  }

  private defaultHours(): number {
    return Math.max(1, Math.round(this.defaultSessionSeconds / 3600));
  }
}
