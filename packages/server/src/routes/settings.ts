import type { IpAllowlistUpdate, RouteDefinition } from '@dataplatform/contract';
import { settingsRoutes } from '@dataplatform/contract';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { z } from 'zod';
import { clientOf } from '../auth/client.js';
import type { SettingsService } from '../services/settings.js';
import { type AccountCall, type AccountHandler, registerAccountRoutes } from './account-routes.js';

type RouteId = (typeof settingsRoutes)[number]['id'];

/** Registers `/api/settings/*`: the IP allowlist (changing it is itself subject to the allowlist). */
export function registerSettings(
  app: FastifyInstance,
  settings: SettingsService,
  requireSession: onRequestHookHandler,
  ipAllowlist: onRequestHookHandler,
): void {
  const handlers: Record<RouteId, AccountHandler> = {
    'settings.getIpAllowlist': ({ request }) =>
      settings.ipAllowlist(request.session!.userId, clientOf(request)),
    'settings.setIpAllowlist': ({ request, body }: AccountCall<z.output<typeof IpAllowlistUpdate>>) =>
      settings.setIpAllowlist(request.session!.userId, body.entries, clientOf(request)),
  };
  registerAccountRoutes(app, settingsRoutes as readonly RouteDefinition[], handlers, requireSession, {
    'settings.setIpAllowlist': [ipAllowlist],
  });
}
