import { z } from 'zod';
import { CLUSTER_ROLES } from '../semantics/cluster-access.js';
import { CLUSTER_TIERS, Cluster } from './account.js';
import { Email } from './auth.js';
import { fromQuery, label, listEnvelope, Timestamp } from './common.js';

/** A cluster's name. */
const ClusterName = label(100).meta({ description: 'Free-text name', example: 'production' });

/** Request to create a cluster. */
export const ClusterCreate = z
  .strictObject({
    name: ClusterName,
    region: z.string().min(1).max(64).optional().meta({
      description: 'One of the regions the server offers (`DATAPLATFORM_REGIONS`); the first when left out',
    }),
    tier: z
      .enum(CLUSTER_TIERS)
      .optional()
      .meta({ description: 'At most the highest tier of the plan, which is also the default' }),
  })
  .meta({ id: 'ClusterCreate', description: 'A new cluster.' });

/** Request to change a cluster: its name, its tier, or both. */
export const ClusterUpdate = z
  .strictObject({ name: ClusterName.optional(), tier: z.enum(CLUSTER_TIERS).optional() })
  .meta({ id: 'ClusterUpdate', description: 'What to change; fields left out stay.' });

/** One page of the caller's clusters. */
export const ClusterList = listEnvelope(Cluster, 'ClusterList');

/** Query of the cluster list. */
export const ClusterListQuery = z.object({
  limit: fromQuery(
    z.coerce.number().int().min(1).max(1000).default(50).meta({ description: 'Page size, 1 to 1000' }),
  ),
  skip: fromQuery(z.coerce.number().int().min(0).default(0).meta({ description: 'Clusters to skip' })),
});

/** Path of a cluster route. */
export const ClusterParams = z.object({ id: z.string().min(1).max(128) });

/** Path of a member route. */
export const MemberParams = z.object({ id: z.string().min(1).max(128), userId: z.string().min(1).max(128) });

/** A role in a cluster. */
const Role = z.enum(CLUSTER_ROLES).meta({
  description:
    'owner: everything; admin: everything but deleting the cluster; developer: data, keys, webhooks, functions, triggers; viewer: read only',
});

/** A member of a cluster. */
export const ClusterMember = z
  .object({ userId: z.string(), email: Email, role: Role })
  .meta({ id: 'ClusterMember', description: 'A user who may act on the cluster, with their role.' });

/** The members of a cluster. */
export const ClusterMemberList = z
  .object({ data: z.array(ClusterMember) })
  .meta({ id: 'ClusterMemberList', description: "The cluster's members, owners first." });

/** Request to change a member's role. */
export const MemberUpdate = z
  .strictObject({ role: Role })
  .meta({ id: 'MemberUpdate', description: 'The new role.' });

/** Request to invite someone to a cluster. */
export const InvitationCreate = z
  .strictObject({ email: Email, role: Role })
  .meta({ id: 'InvitationCreate', description: 'Who to invite, and the role they get on accepting.' });

/** An invitation, as its sender sees it (never with its token). */
export const Invitation = z
  .object({
    _id: z.string(),
    clusterId: z.string(),
    email: Email,
    role: Role,
    createdAt: Timestamp,
    expiresAt: Timestamp.meta({ description: 'Seven days after it was sent' }),
  })
  .meta({
    id: 'Invitation',
    description: 'An e-mailed invitation to join a cluster; its token is in the mail only.',
  });

/** Request to accept an invitation. */
export const InvitationAccept = z
  .strictObject({
    token: z.string().min(1).max(256).meta({ description: 'The `token` of the e-mailed link' }),
  })
  .meta({ id: 'InvitationAccept', description: 'The token of an invitation.' });

/** A request to create a cluster. */
export type ClusterCreate = z.input<typeof ClusterCreate>;
/** A change of a cluster. */
export type ClusterUpdate = z.input<typeof ClusterUpdate>;
/** A member of a cluster. */
export type ClusterMember = z.infer<typeof ClusterMember>;
/** An invitation. */
export type Invitation = z.infer<typeof Invitation>;
/** A page of clusters. */
export type ClusterList = z.infer<typeof ClusterList>;
/** The members of a cluster. */
export type ClusterMemberList = z.infer<typeof ClusterMemberList>;
/** A request to invite someone to a cluster. */
export type InvitationCreate = z.input<typeof InvitationCreate>;
