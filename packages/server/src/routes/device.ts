import type { deviceRoutes } from '@dataplatform/contract';
import { clientOf } from '../auth/client.js';
import type { RouteHandlers } from '../http/route-call.js';
import type { DeviceSignIn } from '../services/device-sign-in.js';

/** Device sign-in under `/api/auth/device` (RFC 8628). */
export function deviceHandlers(device: DeviceSignIn): RouteHandlers<typeof deviceRoutes> {
  return {
    'auth.deviceStart': ({ request }) => device.start(clientOf(request)),
    'auth.deviceApprove': ({ request, body }) =>
      device.decide(request.session!.userId, body.userCode, 'approved'),
    'auth.deviceDeny': ({ request, body }) => device.decide(request.session!.userId, body.userCode, 'denied'),
    'auth.deviceToken': ({ request, reply, body }) => {
      // RFC 8628 §3.5: neither the session nor the errors may be cached.
      reply.header('cache-control', 'no-store');
      return device.poll(body.deviceCode, clientOf(request));
    },
  };
}
