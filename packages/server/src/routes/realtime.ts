import type { realtimeRoutes } from '@dataplatform/contract';
import { ApiError } from '../http/errors.js';
import type { RouteHandlers } from '../http/route-call.js';

/** `GET /api/v1/realtime` without an upgrade: the WebSocket itself is served by `changes/realtime.ts`. */
export function realtimeHandlers(): RouteHandlers<typeof realtimeRoutes> {
  return {
    'realtime.connect': () => {
      throw new ApiError(
        'upgrade_required',
        'Connect with a WebSocket upgrade (Upgrade: websocket)',
        undefined,
        {
          upgrade: 'websocket',
        },
      );
    },
  };
}
