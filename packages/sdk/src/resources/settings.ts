import type { Settings as AccountSettings, IpAllowlist, SettingsPatch } from '../contract-types.js';
import type { APIPromise } from '../core/api-promise.js';
import { APIResource } from '../core/resource.js';
import type { RequestOptions } from '../internal/request-options.js';

const ALLOWLIST = '/api/settings/ip-allowlist';

/** The IP allowlist of the signed-in user's account: `/api/settings/ip-allowlist`. */
export class IpAllowlistSetting extends APIResource {
  /** The allowlist and the address this call came from. */
  get(options?: RequestOptions): APIPromise<IpAllowlist> {
    return this._client.get(ALLOWLIST, options);
  }

  /**
   * Replaces the allowlist with addresses and CIDR ranges (`[]` lifts it). A non-empty list must include the
   * caller's own address: BadRequestError `validation_error` otherwise.
   */
  set(entries: readonly string[], options?: RequestOptions): APIPromise<IpAllowlist> {
    return this._client.put(ALLOWLIST, { ...options, body: { entries } });
  }
}

/**
 * Account settings, under `/api/settings`.
 * @example await client.settings.update({ security: { sessionLifetimeHours: 12 } });
 */
export class Settings extends APIResource {
  /** Every setting: account (name, time zone), security (allowlist, session lifetime), data (default cluster). */
  get(options?: RequestOptions): APIPromise<AccountSettings> {
    return this._client.get('/api/settings', options);
  }

  /**
   * Changes what the merge patch names (`null` restores a default); BadRequestError `validation_error` when any
   * part is refused, and then nothing changes. A new session lifetime applies to sessions started afterwards.
   */
  update(patch: SettingsPatch, options?: RequestOptions): APIPromise<AccountSettings> {
    return this._client.patch('/api/settings', { ...options, body: patch });
  }

  /** `/api/settings/ip-allowlist`. */
  readonly ipAllowlist: IpAllowlistSetting = new IpAllowlistSetting(this._client);
}
