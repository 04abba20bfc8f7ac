import { Deleted } from '../schemas/common.js';
import {
  Notification,
  NotificationList,
  NotificationParams,
  NotificationPreferences,
  NotificationPreferencesUpdate,
  NotificationQuery,
  NotificationsRead,
} from '../schemas/notification.js';
import type { RouteDefinition } from './types.js';

const tag = 'notifications';
const BASE = '/api/notifications';

/** The signed-in user's notifications under /api/notifications. */
export const notificationRoutes = [
  {
    id: 'notifications.list',
    method: 'GET',
    path: BASE,
    tag,
    summary: 'List your notifications',
    description:
      'Newest first; `unread=true` lists only the unread ones. `unread` is the count of unread notifications whatever the filter. Kinds whose in-app preference is off are not kept, so they are never listed.',
    auth: 'session',
    scopes: [],
    query: NotificationQuery,
    success: { status: 200, description: 'A page of notifications', schema: NotificationList },
    errors: ['validation_error'],
  },
  {
    id: 'notifications.readAll',
    method: 'POST',
    path: `${BASE}/read-all`,
    tag,
    summary: 'Mark every notification read',
    description: 'Marks every unread notification of the user read; the answer counts them.',
    auth: 'session',
    scopes: [],
    success: { status: 200, description: 'How many were marked read', schema: NotificationsRead },
    errors: [],
  },
  {
    id: 'notifications.getPreferences',
    method: 'GET',
    path: `${BASE}/preferences`,
    tag,
    summary: 'Read your notification preferences',
    description:
      'Every kind with its channels: `inApp` (listed and streamed) and `email` (sent over SMTP to the account address). By default every kind is in-app and only `account_locked` is e-mailed too.',
    auth: 'session',
    scopes: [],
    success: { status: 200, description: 'The preferences', schema: NotificationPreferences },
    errors: [],
  },
  {
    id: 'notifications.setPreferences',
    method: 'PUT',
    path: `${BASE}/preferences`,
    tag,
    summary: 'Change your notification preferences',
    description:
      'The kinds named get the channels given; the others keep theirs. Applies to notifications raised afterwards.',
    auth: 'session',
    scopes: [],
    body: NotificationPreferencesUpdate,
    success: {
      status: 200,
      description: 'The preferences after the change',
      schema: NotificationPreferences,
    },
    errors: ['validation_error', 'invalid_json', 'invalid_body'],
  },
  {
    id: 'notifications.stream',
    method: 'GET',
    path: `${BASE}/stream`,
    tag,
    summary: 'Stream your new notifications',
    description:
      'Server-sent events: every in-app notification raised for the user from now on (or after the one named by a `Last-Event-ID` header), as `event: notification`, `id: <notification id>` and `data: Notification`. A comment line every 15 s keeps the connection open.',
    auth: 'session',
    scopes: [],
    success: {
      status: 200,
      description: 'A stream of server-sent events',
      schema: Notification,
      contentType: 'text/event-stream',
    },
    errors: [],
  },
  {
    id: 'notifications.read',
    method: 'POST',
    path: `${BASE}/{id}/read`,
    tag,
    summary: 'Mark a notification read',
    description:
      "Marks it read (a notification already read keeps its first `readAt`). Another user's notification is 404 `not_found`.",
    auth: 'session',
    scopes: [],
    params: NotificationParams,
    success: { status: 200, description: 'The notification', schema: Notification },
    errors: ['not_found'],
  },
  {
    id: 'notifications.delete',
    method: 'DELETE',
    path: `${BASE}/{id}`,
    tag,
    summary: 'Delete a notification',
    description: "Removes it for good. Another user's notification is 404 `not_found`.",
    auth: 'session',
    scopes: [],
    params: NotificationParams,
    success: { status: 200, description: 'The notification is gone', schema: Deleted },
    errors: ['not_found'],
  },
] as const satisfies readonly RouteDefinition[];
