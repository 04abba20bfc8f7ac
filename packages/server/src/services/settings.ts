import { isAddressAllowed } from '@dataplatform/contract';
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
   * Replaces the allowlist. A non-empty list must include the address the change comes from, so that nobody
   * cuts themselves off by mistake (a password reset clears the list when an address changes later).
   */
  async setIpAllowlist(userId: string, requested: readonly string[], client: ClientInfo) {
    const entries = [...new Set(requested.map((entry) => entry.trim()))];
    if (!isAddressAllowed(client.ip, entries)) {
      throw new ApiError(
        'validation_error',
        `Invalid body field "entries": the list does not include ${client.ip}, the address of this request; add it, or you would lock yourself out`,
        { in: 'body', field: 'entries', clientIp: client.ip },
      );
    }
    await this.storage.accounts.setIpAllowlist(userId, entries, new Date().toISOString());
    await this.activity.record(userId, 'ip_allowlist.updated', client, { entries });
    return { entries, clientIp: client.ip };
  }
}
