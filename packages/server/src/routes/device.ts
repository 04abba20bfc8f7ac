import {
  type DeviceDecisionRequest,
  type DeviceTokenRequest,
  deviceRoutes,
  type RouteDefinition,
} from '@dataplatform/contract';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { z } from 'zod';
import { clientOf } from '../auth/client.js';
import type { DeviceSignIn } from '../services/device-sign-in.js';
import { type AccountCall, type AccountHandler, registerAccountRoutes } from './account-routes.js';

type RouteId = (typeof deviceRoutes)[number]['id'];
type Call<T extends z.ZodType> = AccountCall<z.output<T>>;

function handlers(device: DeviceSignIn): Record<RouteId, AccountHandler> {
  return {
    'auth.deviceStart': ({ request }) => device.start(clientOf(request)),
    'auth.deviceApprove': ({ request, body }: Call<typeof DeviceDecisionRequest>) =>
      device.decide(request.session!.userId, body.userCode, 'approved'),
    'auth.deviceDeny': ({ request, body }: Call<typeof DeviceDecisionRequest>) =>
      device.decide(request.session!.userId, body.userCode, 'denied'),
    'auth.deviceToken': ({ request, reply, body }: Call<typeof DeviceTokenRequest>) => {
      // RFC 8628 §3.5: neither the session nor the errors may be cached.
      reply.header('cache-control', 'no-store');
      return device.poll(body.deviceCode, clientOf(request));
    },
  };
}

/** Registers device sign-in under `/api/auth/device` (RFC 8628). */
export function registerDeviceSignIn(
  app: FastifyInstance,
  device: DeviceSignIn,
  requireSession: onRequestHookHandler,
) {
  registerAccountRoutes(app, deviceRoutes as readonly RouteDefinition[], handlers(device), requireSession);
}
