import type { notificationRoutes } from '@dataplatform/contract';
import type { Answer } from './answers.js';
import type { Operation } from './document-operations.js';
import type { OperationInput } from './request-input.js';

type RouteId = (typeof notificationRoutes)[number]['id'];

/** The signed-in user and the mock's notifications. */
function mine(input: OperationInput) {
  const account = input.account!;
  return { userId: account.session!.userId, notifications: account.model.notifications };
}

const ok = (body: unknown): Answer => ({ status: 200, body });

/** `/api/notifications/*` as on the server, over the mock's own notifications. */
export const notificationOperations: Record<RouteId, Operation> = {
  'notifications.list': (input) => {
    const { userId, notifications } = mine(input);
    return ok(notifications.list(userId, input.query as { unread?: boolean; limit: number; skip: number }));
  },
  'notifications.read': (input) => {
    const { userId, notifications } = mine(input);
    return ok(notifications.read(userId, input.params.id!));
  },
  'notifications.readAll': (input) => {
    const { userId, notifications } = mine(input);
    return ok(notifications.readAll(userId));
  },
  'notifications.delete': (input) => {
    const { userId, notifications } = mine(input);
    return ok(notifications.delete(userId, input.params.id!));
  },
  'notifications.getPreferences': (input) => {
    const { userId, notifications } = mine(input);
    return ok(notifications.preferences(userId));
  },
  'notifications.setPreferences': (input) => {
    const { userId, notifications } = mine(input);
    return ok(
      notifications.setPreferences(userId, input.body as Record<string, { inApp: boolean; email: boolean }>),
    );
  },
  // A stream that says why it carries nothing, then ends (a client reconnects after `retry`).
  'notifications.stream': () => ({
    status: 200,
    body: undefined,
    raw: {
      contentType: 'text/event-stream; charset=utf-8',
      text: 'retry: 2000\n\n: the mocks stream no notifications\n\n',
    },
  }),
};
