import type { settingsRoutes } from '@dataplatform/contract';
import { clientOf } from '../auth/client.js';
import type { RouteHandlers } from '../http/route-call.js';
import type { SettingsService } from '../services/settings.js';

/** `/api/settings/*`: the settings and the IP allowlist (changing either is subject to the allowlist: `ipGuarded`). */
export function settingsHandlers(settings: SettingsService): RouteHandlers<typeof settingsRoutes> {
  return {
    'settings.get': ({ request }) => settings.get(request.session!.userId),
    'settings.update': ({ request, body }) =>
      settings.update(request.session!.userId, body, clientOf(request)),
    'settings.getIpAllowlist': ({ request }) =>
      settings.ipAllowlist(request.session!.userId, clientOf(request)),
    'settings.setIpAllowlist': ({ request, body }) =>
      settings.setIpAllowlist(request.session!.userId, body.entries, clientOf(request)),
  };
}
