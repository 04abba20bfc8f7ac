import type { keysRoutes, robotsRoutes } from '@dataplatform/contract';
import type { Answer } from './answers.js';
import type { MockModel, Operation } from './document-operations.js';
import type { KeyOwner, ManagedKeys } from './managed-keys.js';
import type { AccountInput, OperationInput } from './request-input.js';

type RouteId = (typeof keysRoutes)[number]['id'] | (typeof robotsRoutes)[number]['id'];

type Call = OperationInput & { account: AccountInput; keys: ManagedKeys; userId: string; id: string };

/** A key or robot route: the session and the IP allowlist (`ipGuarded`) were checked before it, as on the server. */
function operation(run: (call: Call) => unknown, status = 200): Operation {
  return (input, _store, model: MockModel): Answer => {
    const account = input.account;
    if (!account?.session) throw new Error('key routes need a session');
    const userId = account.session.userId;
    const call = { ...input, account, keys: model.keys.managed, userId, id: input.params.id ?? '' };
    return { status, body: run(call) };
  };
}

/** The signed-in user's own keys; a robot's are reached through the robot. */
const own = (call: Call): KeyOwner => ({ userId: call.userId, robotId: null });

/** The behaviour of `/api/keys/*` and `/api/robots/*`, as on the server. */
export const keyOperations: Record<RouteId, Operation> = {
  'keys.create': operation((c) => c.keys.create(own(c), c.body), 201),
  'keys.list': operation((c) => c.keys.list(own(c))),
  'keys.get': operation((c) => c.keys.get(own(c), c.id)),
  'keys.pause': operation((c) => c.keys.setStatus(own(c), c.id, 'paused')),
  'keys.resume': operation((c) => c.keys.setStatus(own(c), c.id, 'active')),
  'keys.rotate': operation((c) => c.keys.rotate(own(c), c.id)),
  'keys.delete': operation((c) => c.keys.delete(own(c), c.id)),
  'keys.usage': operation((c) =>
    c.keys.usage(own(c), c.id, c.query as { outcome?: string; limit: number; skip: number }),
  ),
  'robots.create': operation(
    (c) => c.keys.createRobot(c.userId, c.body as { name: string; scopes?: string[] }),
    201,
  ),
  'robots.list': operation((c) => c.keys.listRobots(c.userId)),
  'robots.get': operation((c) => c.keys.getRobot(c.userId, c.id)),
  'robots.delete': operation((c) => c.keys.deleteRobot(c.userId, c.id)),
  'robots.keys.create': operation((c) => c.keys.createRobotKey(c.userId, c.id, c.body), 201),
  'robots.keys.list': operation((c) => c.keys.listRobotKeys(c.userId, c.id)),
};
