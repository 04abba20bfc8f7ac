import { createHash, randomBytes } from 'node:crypto';
import type { ClusterRole } from '@dataplatform/contract';
import { normalizeEmail } from '../bootstrap/accounts.js';
import { ApiError } from '../http/errors.js';
import { ulid } from '../ids.js';
import type { Mailer } from '../mail/mailer.js';
import type { InvitationOutcome, MemberChange } from '../storage/clusters.js';
import type { Storage } from '../storage/types.js';
import { ClusterAccess } from './cluster-access.js';

/** How long an invitation can be accepted. */
export const INVITATION_DAYS = 7;

/** Invitation tokens are stored as their SHA-256: a copy of the database holds no usable link. */
function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** The e-mail with the invitation link. */
export function invitationMessage(
  to: string,
  clusterName: string,
  role: ClusterRole,
  link: string,
  token: string,
) {
  return {
    to,
    subject: `You are invited to the dataplatform cluster ${clusterName}`,
    text: [
      `You are invited to join the cluster "${clusterName}" as ${role}.`,
      '',
      `Sign in with this address and open this link within ${INVITATION_DAYS} days:`,
      link,
      '',
      `Or send the token with POST /api/clusters/invitations/accept: ${token}`,
      '',
      'The link works once, and only for this e-mail address.',
    ].join('\n'),
  };
}

type Refusal = Exclude<InvitationOutcome, { ok: true }>['reason'];

/** Why an invitation was refused, as the API says it. */
function refusal(reason: Refusal): ApiError {
  if (reason === 'member') return new ApiError('conflict', 'You are already a member of this cluster');
  return new ApiError('validation_error', REFUSALS[reason], { in: 'body', field: 'token' });
}

const REFUSALS: Record<Exclude<Refusal, 'member'>, string> = {
  unknown: 'The invitation token is unknown',
  used: 'The invitation was already used',
  expired: 'The invitation has expired',
  other_email: 'The invitation was sent to another e-mail address',
};

/**
 * Members of a cluster and invitations to it. Owners and admins manage members; only an owner makes, unmakes or
 * removes an owner; any member may leave; the last owner can neither leave nor be demoted (409).
 */
export class ClusterMembers {
  private readonly access: ClusterAccess;

  constructor(
    private readonly storage: Storage,
    private readonly mailer: Mailer,
    private readonly appUrl: () => string,
  ) {
    this.access = new ClusterAccess(storage);
  }

  async list(userId: string, clusterId: string) {
    await this.access.require(userId, clusterId, 'read');
    return { data: await this.storage.clusters.members(clusterId) };
  }

  async invite(userId: string, clusterId: string, input: { email: string; role: ClusterRole }) {
    const inviter = await this.access.require(userId, clusterId, 'members');
    if (input.role === 'owner' && inviter !== 'owner')
      throw new ApiError('forbidden', 'Only an owner may invite an owner', {
        role: inviter,
        action: 'members',
      });
    const cluster = (await this.storage.clusters.find(clusterId))!;
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    const invitation = {
      id: `inv_${ulid()}`,
      tokenHash: tokenHash(token),
      clusterId,
      email: normalizeEmail(input.email),
      role: input.role,
      invitedBy: userId,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + INVITATION_DAYS * 86_400_000).toISOString(),
    };
    if (!(await this.storage.clusters.invite(invitation)))
      throw new ApiError('conflict', `${invitation.email} is already a member of this cluster`);
    const link = `${this.appUrl()}/clusters/invitations/accept?token=${encodeURIComponent(token)}`;
    await this.mailer.send(invitationMessage(invitation.email, cluster.name, input.role, link, token));
    const { tokenHash: _hash, invitedBy: _by, id, ...shown } = invitation;
    return { _id: id, ...shown };
  }

  async accept(userId: string, token: string) {
    const user = (await this.storage.accounts.findUser(userId))!;
    const outcome = await this.storage.clusters.accept(tokenHash(token), user, new Date().toISOString());
    if (!outcome.ok) throw refusal(outcome.reason);
    return outcome.member;
  }

  async setRole(userId: string, clusterId: string, memberId: string, role: ClusterRole) {
    const caller = await this.access.require(userId, clusterId, 'members');
    const current = await this.storage.clusters.role(clusterId, memberId);
    if (current === null) throw memberNotFound(memberId);
    if ((role === 'owner' || current === 'owner') && caller !== 'owner')
      throw new ApiError('forbidden', 'Only an owner may make or unmake an owner', {
        role: caller,
        action: 'members',
      });
    settle(await this.storage.clusters.setRole(clusterId, memberId, role), memberId, 'demote');
    return (await this.storage.clusters.members(clusterId)).find((m) => m.userId === memberId)!;
  }

  /** Removes a member, or lets the caller leave. */
  async remove(userId: string, clusterId: string, memberId: string) {
    const leaving = userId === memberId;
    const caller = await this.access.require(userId, clusterId, leaving ? 'read' : 'members');
    const current = await this.storage.clusters.role(clusterId, memberId);
    if (current === null) throw memberNotFound(memberId);
    if (!leaving && current === 'owner' && caller !== 'owner')
      throw new ApiError('forbidden', 'Only an owner may remove an owner', {
        role: caller,
        action: 'members',
      });
    settle(await this.storage.clusters.removeMember(clusterId, memberId), memberId, 'remove');
    return { _id: memberId, deleted: true as const };
  }
}

function memberNotFound(userId: string): ApiError {
  return new ApiError('not_found', `No member "${userId}" in this cluster`, { userId });
}

/** Turns what storage did into the answer: 404 for a member gone meanwhile, 409 for the last owner. */
function settle(change: MemberChange, userId: string, verb: 'demote' | 'remove'): void {
  if (change === 'not_member') throw memberNotFound(userId);
  if (change === 'last_owner')
    throw new ApiError('conflict', `Cannot ${verb} the last owner: make another member owner first`);
}
