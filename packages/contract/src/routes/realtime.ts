import { RealtimeServerMessage } from '../schemas/realtime.js';
import type { RouteDefinition } from './types.js';

/** The realtime WebSocket: many change-stream subscriptions over one connection. */
export const realtimeRoutes = [
  {
    id: 'realtime.connect',
    method: 'GET',
    path: '/api/v1/realtime',
    tag: 'data',
    summary: 'Open the realtime WebSocket',
    description:
      'Upgrades to a WebSocket (`Connection: Upgrade`, `Upgrade: websocket`) that carries many change-stream subscriptions, each with the semantics of `GET /api/v1/data/{collection}/changes`. The client sends JSON text messages: `{"type":"subscribe","id","collection","where"?,"params"?,"since"?}` (`RealtimeSubscribe`) and `{"type":"unsubscribe","id"}`. The server answers `{"type":"subscribed","id","since"?}`, then `{"type":"event","id","event"}` for each event (the event a webhook receiver gets), `{"type":"unsubscribed","id"}`, and `{"type":"error","id"?,"code","message","lastEventId"?}` (`RealtimeServerMessage`): with an `id`, that subscription has ended (`invalid_sql`, `reserved_collection`, `too_many_streams`, `gone`, `too_slow`, or the code that now refuses the credential); without one, a message was refused (`validation_error`). Subscriptions count against the same limit of open streams as the change stream; the credential is checked at the upgrade, at each subscribe and whenever authentication may have changed: when it no longer holds, every subscription ends with an error message naming the code (`key_paused`, `unauthorized`…). Without an upgrade the answer is 426 `upgrade_required`.',
    auth: 'data',
    scopes: ['data:read'],
    websocket: true,
    success: {
      status: 101,
      description: 'Switching to the WebSocket protocol',
      schema: RealtimeServerMessage,
    },
    errors: ['upgrade_required'],
  },
] as const satisfies readonly RouteDefinition[];
