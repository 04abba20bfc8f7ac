import { describe, expect, it } from 'vitest';
import { routes } from '../routes/index.js';
import {
  type ClusterAction,
  type ClusterRole,
  checkClusterAccess,
  clusterActionOf,
  roleAllows,
} from './cluster-access.js';

/** The role table of API.md, written out: who may do what on a cluster. */
const TABLE: Record<ClusterRole, Record<ClusterAction, boolean>> = {
  owner: {
    read: true,
    data: true,
    keys: true,
    webhooks: true,
    schema: true,
    functions: true,
    triggers: true,
    backups: true,
    intelligence: true,
    manage: true,
    members: true,
    delete: true,
  },
  admin: {
    read: true,
    data: true,
    keys: true,
    webhooks: true,
    schema: true,
    functions: true,
    triggers: true,
    backups: true,
    intelligence: true,
    manage: true,
    members: true,
    delete: false,
  },
  developer: {
    read: true,
    data: true,
    keys: true,
    webhooks: true,
    schema: true,
    functions: true,
    triggers: true,
    backups: true,
    intelligence: true,
    manage: false,
    members: false,
    delete: false,
  },
  viewer: {
    read: true,
    data: false,
    keys: false,
    webhooks: false,
    schema: false,
    functions: false,
    triggers: false,
    backups: false,
    intelligence: false,
    manage: false,
    members: false,
    delete: false,
  },
};

describe('the role table', () => {
  for (const [role, actions] of Object.entries(TABLE) as [ClusterRole, Record<ClusterAction, boolean>][]) {
    for (const [action, allowed] of Object.entries(actions) as [ClusterAction, boolean][]) {
      it(`${allowed ? 'lets' : 'does not let'} a ${role} ${action}`, () => {
        expect(roleAllows(role, action)).toBe(allowed);
        const violation = checkClusterAccess(role, action);
        if (allowed) expect(violation).toBeNull();
        else expect(violation).toMatchObject({ code: 'forbidden', details: { role, action } });
      });
    }
  }
});

describe('the action of a route', () => {
  it.each([
    ['data.get', 'read'],
    ['data.list', 'read'],
    ['data.sql', 'read'],
    ['data.create', 'data'],
    ['data.batch', 'data'],
    ['data.import', 'data'],
    ['webhooks.list', 'read'],
    ['webhooks.create', 'webhooks'],
    ['webhooks.delete', 'webhooks'],
    ['keys.create', 'keys'],
    ['schema.validator.put', 'schema'],
    ['schema.validator.delete', 'schema'],
    ['schema.validator.check', 'schema'],
    ['schema.collections.drop', 'schema'],
    ['schema.infer', 'read'],
    ['backups.create', 'backups'],
    ['backups.restore', 'backups'],
    ['backups.delete', 'backups'],
    ['backups.download', 'read'],
    ['backups.list', 'read'],
    ['schema.collections.list', 'read'],
    ['data.schema.collections.list', 'read'],
    ['functions.get', 'read'],
    ['functions.invocations', 'read'],
    ['functions.create', 'functions'],
    ['functions.invoke', 'functions'],
    ['functions.invokeByName', 'functions'],
    ['triggers.runs', 'read'],
    ['triggers.update', 'triggers'],
    ['triggers.runByKey', 'triggers'],
    ['clusters.get', 'read'],
    ['clusters.update', 'manage'],
    ['clusters.pause', 'manage'],
    ['clusters.delete', 'delete'],
    ['clusters.invitations.create', 'members'],
    ['clusters.members.delete', 'members'],
  ])('%s is %s', (id, action) => {
    const route = routes.find((r) => r.id === id)!;
    expect(clusterActionOf(route)).toBe(action);
  });

  it('reads on every GET', () => {
    for (const route of routes.filter((r) => r.method === 'GET')) expect(clusterActionOf(route)).toBe('read');
  });
});
