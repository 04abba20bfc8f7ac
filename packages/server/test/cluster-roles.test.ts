import { type ClusterRole, routeById } from '@dataplatform/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { asUser, createCluster, memberAs, userOn } from './cluster-helpers.js';
import { forEachEngine, type SignedUp, type TestServer } from './helpers.js';

/** Who may call what, written out from the role table of API.md (not derived from the code under test). */
const ALLOWED: Record<string, readonly ClusterRole[]> = {
  'data.list': ['owner', 'admin', 'developer', 'viewer'],
  'data.get': ['owner', 'admin', 'developer', 'viewer'],
  'data.create': ['owner', 'admin', 'developer'],
  'data.update': ['owner', 'admin', 'developer'],
  'data.delete': ['owner', 'admin', 'developer'],
  'data.batch': ['owner', 'admin', 'developer'],
  'data.jobs.list': ['owner', 'admin', 'developer', 'viewer'],
  'webhooks.list': ['owner', 'admin', 'developer', 'viewer'],
  'webhooks.create': ['owner', 'admin', 'developer'],
  'keys.create': ['owner', 'admin', 'developer'],
  'clusters.get': ['owner', 'admin', 'developer', 'viewer'],
  'clusters.members.list': ['owner', 'admin', 'developer', 'viewer'],
  'clusters.update': ['owner', 'admin'],
  'clusters.pause': ['owner', 'admin'],
  'clusters.resume': ['owner', 'admin'],
  'clusters.invitations.create': ['owner', 'admin'],
  'clusters.delete': ['owner'],
};

const ROLES: readonly ClusterRole[] = ['viewer', 'developer', 'admin', 'owner'];

forEachEngine((server) => {
  let t: TestServer;
  let clusterId: string;
  const users = {} as Record<ClusterRole, SignedUp>;
  beforeAll(async () => {
    t = server();
    users.owner = await userOn(t, 'team');
    clusterId = (await createCluster(t, users.owner, 'shared'))._id;
    for (const role of ['admin', 'developer', 'viewer'] as const)
      users[role] = await memberAs(t, users.owner, clusterId, role);
    for (const _id of ['o1', ...ROLES.map((role) => `gone-${role}`)]) {
      const seeded = await asUser(
        t,
        users.owner,
        'POST',
        '/api/v1/data/orders',
        { _id, total: 1 },
        {
          'x-cluster-id': clusterId,
        },
      );
      expect(seeded.status).toBe(201);
    }
  });

  /** One request per route: what the route needs to do its work for a member allowed to call it. */
  const requests: Record<string, (role: ClusterRole) => [string, string, unknown?]> = {
    'data.list': () => ['GET', '/api/v1/data/orders'],
    'data.get': () => ['GET', '/api/v1/data/orders/o1'],
    'data.create': () => ['POST', '/api/v1/data/orders', { total: 2 }],
    'data.update': () => ['PATCH', '/api/v1/data/orders/o1', { total: 3 }],
    'data.delete': (role) => ['DELETE', `/api/v1/data/orders/gone-${role}`],
    'data.batch': () => [
      'POST',
      '/api/v1/data/batch',
      { operations: [{ op: 'insert', collection: 'orders', document: { total: 4 } }] },
    ],
    'data.jobs.list': () => ['GET', '/api/v1/data/jobs'],
    'webhooks.list': () => ['GET', '/api/v1/data/webhooks'],
    'webhooks.create': () => [
      'POST',
      '/api/v1/data/webhooks',
      { url: 'https://example.com/hook', events: ['document.created'] },
    ],
    'keys.create': (role) => ['POST', '/api/keys', { name: `by ${role}`, scopes: ['data:read'], clusterId }],
    'clusters.get': () => ['GET', `/api/clusters/${clusterId}`],
    'clusters.members.list': () => ['GET', `/api/clusters/${clusterId}/members`],
    'clusters.update': (role) => ['PATCH', `/api/clusters/${clusterId}`, { name: `renamed by ${role}` }],
    'clusters.pause': () => ['POST', `/api/clusters/${clusterId}/pause`],
    'clusters.resume': () => ['POST', `/api/clusters/${clusterId}/resume`],
    'clusters.invitations.create': (role) => [
      'POST',
      `/api/clusters/${clusterId}/invitations`,
      { email: `invited-by-${role}-${t.engine}@example.com`, role: 'viewer' },
    ],
    'clusters.delete': () => ['DELETE', `/api/clusters/${clusterId}`],
  };

  // The routes in the order the table lists them; deletion last, so that the owner's ends the test.
  for (const role of ROLES) {
    describe(`as ${role}`, () => {
      for (const [routeId, allowed] of Object.entries(ALLOWED)) {
        const may = allowed.includes(role);
        it(`${may ? 'may' : 'may not'} call ${routeId}`, async () => {
          const [method, path, body] = requests[routeId]!(role);
          const route = routeById(routeId);
          expect(route.method).toBe(method);
          const res = await asUser(t, users[role], method, path, body, { 'x-cluster-id': clusterId });
          const text = await res.text();
          if (may) {
            expect([403, 404], `${routeId} as ${role}: ${res.status} ${text}`).not.toContain(res.status);
          } else {
            expect(res.status, text).toBe(403);
            expect(JSON.parse(text)).toMatchObject({ code: 'forbidden', details: { role } });
          }
        });
      }
    });
  }
});
