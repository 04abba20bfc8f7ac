import type { RouteDefinition } from '../routes/types.js';
import type { Violation } from './documents.js';

/** Roles of a cluster's members, most powerful first. */
export const CLUSTER_ROLES = ['owner', 'admin', 'developer', 'viewer'] as const;

/** A member's role in a cluster. */
export type ClusterRole = (typeof CLUSTER_ROLES)[number];

/**
 * What a request does to a cluster, in the terms of the role table: read anything; write data; manage keys or
 * webhooks; manage the collections' validators and indexes (`schema`); deploy, delete or run functions; manage or
 * run triggers; take, download, delete and restore backups (`backups`); build datasets, train models and run batch predictions (`intelligence`); manage the cluster itself (rename, tier, pause, resume); manage its members; delete it.
 */
export const CLUSTER_ACTIONS = [
  'read',
  'data',
  'keys',
  'webhooks',
  'schema',
  'functions',
  'triggers',
  'backups',
  'intelligence',
  'manage',
  'members',
  'delete',
] as const;

/** An action on a cluster. */
export type ClusterAction = (typeof CLUSTER_ACTIONS)[number];

/**
 * The role table of the API: owner everything; admin everything but deleting the cluster (and billing, which is
 * the account's, not the cluster's); developer data, keys, webhooks, schema, functions, triggers,
 * backups and intelligence; viewer read only. Running a function is `functions`, not `read`: its code may write data.
 */
const ALLOWED: Readonly<Record<ClusterRole, ReadonlySet<ClusterAction>>> = {
  owner: new Set(CLUSTER_ACTIONS),
  admin: new Set(CLUSTER_ACTIONS.filter((action) => action !== 'delete')),
  developer: new Set<ClusterAction>([
    'read',
    'data',
    'keys',
    'webhooks',
    'schema',
    'functions',
    'triggers',
    'backups',
    'intelligence',
  ]),
  viewer: new Set<ClusterAction>(['read']),
};

/** True when a member with `role` may do `action` on the cluster. */
export function roleAllows(role: ClusterRole, action: ClusterAction): boolean {
  return ALLOWED[role].has(action);
}

/**
 * The one authorization rule: may a member with `role` do `action` on the cluster? Null when allowed, else the
 * 403 `forbidden` both the server and the mocks answer.
 */
export function checkClusterAccess(role: ClusterRole, action: ClusterAction): Violation | null {
  if (roleAllows(role, action)) return null;
  return {
    code: 'forbidden',
    message: `A cluster ${role} may not do this (${action})`,
    details: { role, action },
  };
}

/** Cluster routes whose action is not read off their method. */
const ACTION_BY_ROUTE: Readonly<Record<string, ClusterAction>> = {
  'clusters.update': 'manage',
  'clusters.pause': 'manage',
  'clusters.resume': 'manage',
  'clusters.delete': 'delete',
  'clusters.invitations.create': 'members',
  'clusters.members.update': 'members',
  'clusters.members.delete': 'members',
  'keys.create': 'keys',
  'jobs.cancel': 'data',
  'schema.validator.put': 'schema',
  'schema.validator.delete': 'schema',
  'schema.indexes.create': 'schema',
  'schema.indexes.delete': 'schema',
  'schema.validator.check': 'schema',
  'schema.collections.drop': 'schema',
  'backups.create': 'backups',
  'backups.delete': 'backups',
  'backups.restore': 'backups',
  'backups.setSchedule': 'backups',
  'intelligence.datasets.create': 'intelligence',
  'intelligence.datasets.delete': 'intelligence',
  'intelligence.models.create': 'intelligence',
  'intelligence.models.delete': 'intelligence',
  'intelligence.models.train': 'intelligence',
  'intelligence.predictions.create': 'intelligence',
  // A prediction reads the model and writes nothing.
  'intelligence.models.predict': 'read',
  'intelligence.models.predictByKey': 'read',
};

/**
 * The action a route performs on the cluster it acts on. A route named in the table above has its own; on the
 * webhook routes a write manages webhooks; on other data routes a write, or a route that needs more than
 * `data:read` (SQL reads, but by POST), writes data; any other GET reads.
 */
export function clusterActionOf(
  route: Pick<RouteDefinition, 'id' | 'method' | 'tag' | 'scopes'>,
): ClusterAction {
  const named = ACTION_BY_ROUTE[route.id];
  if (named) return named;
  if (route.method === 'GET') return 'read';
  if (route.tag === 'webhooks') return 'webhooks';
  if (route.tag === 'functions') return 'functions';
  if (route.tag === 'triggers') return 'triggers';
  if (route.scopes.includes('data:read') && !route.scopes.includes('data:write')) return 'read';
  return 'data';
}
