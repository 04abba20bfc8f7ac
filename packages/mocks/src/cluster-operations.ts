import type { ClusterRole, ClusterTier, clusterRoutes, memberRoutes } from '@dataplatform/contract';
import type { Answer } from './answers.js';
import { planOf } from './clusters.js';
import type { Operation } from './document-operations.js';
import type { OperationInput } from './request-input.js';

type RouteId = (typeof clusterRoutes)[number]['id'];

type Call = OperationInput & { userId: string; id: string };

/** A cluster route: the session was checked before it, as on the server. */
function operation(
  run: (
    call: Call,
    clusters: import('./clusters.js').ClusterModel,
    plan: ReturnType<typeof planOf>,
  ) => unknown,
  status = 200,
): Operation {
  return (input): Answer => {
    const account = input.account;
    if (!account?.session) throw new Error('cluster routes need a session');
    const userId = account.session.userId;
    const plan = planOf(account.model.billing(userId));
    return {
      status,
      body: run({ ...input, userId, id: input.params.id ?? '' }, account.model.clusters, plan),
    };
  };
}

type Change = { name?: string; tier?: ClusterTier };

/** The behaviour of `/api/clusters/*`, as on the server. */
export const clusterOperations: Record<RouteId, Operation> = {
  'clusters.create': operation((c, m, p) => m.create(c.userId, p, c.body as Change & { name: string }), 201),
  'clusters.list': operation((c, m, p) => {
    const { limit, skip } = c.query as { limit: number; skip: number };
    return m.list(c.userId, p, limit, skip);
  }),
  'clusters.get': operation((c, m, p) => m.get(c.userId, p, c.id)),
  'clusters.update': operation((c, m, p) => m.update(c.userId, p, c.id, c.body as Change)),
  'clusters.pause': operation((c, m, p) => m.move(c.userId, p, c.id, 'paused')),
  'clusters.resume': operation((c, m, p) => m.move(c.userId, p, c.id, 'running')),
  'clusters.delete': operation((c, m, p) => m.delete(c.userId, p, c.id), 202),
};

type MemberRouteId = (typeof memberRoutes)[number]['id'];

/** The behaviour of the member and invitation routes, as on the server; invitations go to the mock outbox. */
export const memberOperations: Record<MemberRouteId, Operation> = {
  'clusters.members.list': (input) => {
    const { account, userId, plan } = context(input);
    const emailOf = (id: string) => account.model.user(id).email;
    return { status: 200, body: account.model.clusters.members(userId, plan, input.params.id!, emailOf) };
  },
  'clusters.invitations.create': (input) => {
    const { account, userId, plan } = context(input);
    const emailOf = (id: string) => account.model.user(id).email;
    const body = input.body as { email: string; role: ClusterRole };
    const sent = account.model.clusters.invite(userId, plan, input.params.id!, body, emailOf);
    account.model.send({
      to: sent.invitation.email,
      subject: `You are invited to the dataplatform cluster ${sent.clusterName}`,
      text: `Open this link within 7 days:\nhttp://localhost:5000/clusters/invitations/accept?token=${sent.token}\n`,
      invitationToken: sent.token,
    });
    return { status: 201, body: sent.invitation };
  },
  'clusters.invitations.accept': (input) => {
    const { account, userId } = context(input);
    const user = account.model.user(userId);
    const { token } = input.body as { token: string };
    return { status: 200, body: account.model.clusters.accept({ id: userId, email: user.email }, token) };
  },
  'clusters.members.update': (input) => {
    const { account, userId, plan } = context(input);
    const memberId = input.params.userId!;
    const { role } = input.body as { role: ClusterRole };
    const email =
      account.model.clusters
        .members(userId, plan, input.params.id!, (id) => account.model.user(id).email)
        .data.find((m) => m.userId === memberId)?.email ?? '';
    return {
      status: 200,
      body: account.model.clusters.setRole(userId, plan, input.params.id!, memberId, role, email),
    };
  },
  'clusters.members.delete': (input) => {
    const { account, userId, plan } = context(input);
    return {
      status: 200,
      body: account.model.clusters.remove(userId, plan, input.params.id!, input.params.userId!),
    };
  },
};

function context(input: OperationInput) {
  const account = input.account;
  if (!account?.session) throw new Error('cluster routes need a session');
  const userId = account.session.userId;
  return { account, userId, plan: planOf(account.model.billing(userId)) };
}
