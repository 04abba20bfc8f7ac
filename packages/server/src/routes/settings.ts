import type { settingsRoutes } from '@dataplatform/contract';
import { clientOf } from '../auth/client.js';
import type { RouteHandlers } from '../http/route-call.js';
import type { SettingsService } from '../services/settings.js';

/** `/api/settings/*`: the IP allowlist (changing it is itself subject to the allowlist: `ipGuarded` in the contract). */
export function settingsHandlers(settings: SettingsService): RouteHandlers<typeof settingsRoutes> {
  return {
    'settings.getIpAllowlist': ({ request }) =>
      settings.ipAllowlist(request.session!.userId, clientOf(request)),
    'settings.setIpAllowlist': ({ request, body }) =>
      settings.setIpAllowlist(request.session!.userId, body.entries, clientOf(request)),
  };
}
