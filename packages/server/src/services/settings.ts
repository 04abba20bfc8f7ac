import { allowlistUpdate } from '@dataplatform/contract';
import type { ClientInfo } from '../auth/client.js';
import { ApiError } from '../http/errors.js';
import type { Storage } from '../storage/types.js';
import type { ActivityLog } from './activity.js';

/** Account settings: the IP allowlist. */
export class SettingsService {
  constructor(
    private readonly storage: Storage,
    private readonly activity: ActivityLog,
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
}
