import type { notificationRoutes } from '@dataplatform/contract';
import type { RouteHandlers } from '../http/route-call.js';
import type { NotificationStreams } from '../notifications/stream.js';
import type { NotificationService } from '../services/notifications.js';

/** `/api/notifications/*`: the signed-in user's own notifications; another user's are 404. */
export function notificationHandlers(
  notifications: NotificationService,
  streams: NotificationStreams,
): RouteHandlers<typeof notificationRoutes> {
  return {
    'notifications.list': ({ request, query }) => notifications.list(request.session!.userId, query),
    'notifications.read': ({ request, params }) => notifications.read(request.session!.userId, params.id),
    'notifications.readAll': ({ request }) => notifications.readAll(request.session!.userId),
    'notifications.delete': ({ request, params }) => notifications.delete(request.session!.userId, params.id),
    'notifications.getPreferences': ({ request }) => notifications.preferences(request.session!.userId),
    'notifications.setPreferences': ({ request, body }) =>
      notifications.setPreferences(request.session!.userId, body),
    'notifications.stream': async ({ request, reply }) => {
      // The stream takes the reply over; nothing is left to send.
      await streams.serve(request, reply, request.session!.userId);
      return undefined;
    },
  };
}
