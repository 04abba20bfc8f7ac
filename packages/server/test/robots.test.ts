import { SCOPES } from '@dataplatform/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { RobotService } from '../src/index.js';
import { forEachEngine, type TestServer } from './helpers.js';
import { expectApiError, expectError, keyService, newAccount } from './key-helpers.js';

forEachEngine((server) => {
  let t: TestServer;
  let robots: RobotService;
  beforeAll(() => {
    t = server();
    robots = new RobotService(t.server.storage, keyService(t));
  });

  describe('robots', () => {
    it("creates a robot holding all of its owner's scopes by default, and lists the owner's robots newest first", async () => {
      const { userId } = await newAccount(t);
      const first = await robots.create(userId, { name: 'deployer' });
      expect(first).toMatchObject({ name: 'deployer', scopes: [...SCOPES] });
      expect(first._id).toMatch(/^rbt_/);
      const second = await robots.create(userId, { name: 'reporter', scopes: ['data:read'] });
      expect((await robots.list(userId)).data.map((r) => r._id)).toEqual([second._id, first._id]);
      expect(await robots.get(userId, second._id)).toEqual(second);
      const other = await newAccount(t);
      expect((await robots.list(other.userId)).data).toEqual([]);
      await expectApiError(robots.get(other.userId, first._id), 'not_found');
    });

    it('refuses an invalid robot with 400', async () => {
      const { userId } = await newAccount(t);
      await expectApiError(robots.create(userId, { name: '' }), 'validation_error');
      await expectApiError(robots.create(userId, { name: 'x', scopes: ['nope'] }), 'validation_error');
      await expectApiError(robots.create(userId, 'x'), 'invalid_body');
    });

    it('gives a robot keys of its own that work on the data routes, apart from the user’s keys', async () => {
      const { userId, keyId, clusterId } = await newAccount(t);
      const robot = await robots.create(userId, { name: 'etl', scopes: ['data:read', 'data:write'] });
      const { key, secret } = await robots.createKey(userId, robot._id, {
        name: 'etl-key',
        scopes: ['data:write'],
      });
      expect(key.clusterId).toBe(clusterId);
      expect(
        (await t.call('POST', '/api/v1/data/robot', { key: secret, body: { by: 'robot' } })).status,
      ).toBe(201);
      const keys = keyService(t);
      const owner = await robots.keyOwner(userId, robot._id);
      expect((await keys.list(owner)).data.map((k) => k._id)).toEqual([key._id]);
      expect((await keys.list({ userId, robotId: null })).data.map((k) => k._id)).toEqual([keyId]);
      // The user's own key routes do not reach the robot's key, and the other way round.
      await expectApiError(keys.get({ userId, robotId: null }, key._id), 'not_found');
      await expectApiError(keys.get(owner, keyId), 'not_found');
      expect((await keys.pause(owner, key._id)).status).toBe('paused');
    });

    it("limits a robot's key to the robot's scopes (403 forbidden) and aliases count as their scope", async () => {
      const { userId } = await newAccount(t);
      const robot = await robots.create(userId, { name: 'reader', scopes: ['data:read'] });
      const error = await expectApiError(
        robots.createKey(userId, robot._id, { name: 'k', scopes: ['data:read', 'data:write'] }),
        'forbidden',
      );
      expect(error.details).toEqual({ scopes: ['data:write'] });
      const alias = await robots.createKey(userId, robot._id, { name: 'k', scopes: ['database:read'] });
      expect((await t.call('GET', '/api/v1/data/robot', { key: alias.secret })).status).toBe(200);
    });

    it("answers 404 for another user's robot and its keys", async () => {
      const a = await newAccount(t);
      const b = await newAccount(t);
      const robot = await robots.create(a.userId, { name: 'mine' });
      await expectApiError(
        robots.createKey(b.userId, robot._id, { name: 'k', scopes: ['data:read'] }),
        'not_found',
      );
      await expectApiError(robots.keyOwner(b.userId, robot._id), 'not_found');
      await expectApiError(robots.delete(b.userId, robot._id), 'not_found');
      expect((await robots.get(a.userId, robot._id))._id).toBe(robot._id);
    });

    it("refuses a robot's key in a cluster the owner does not have with 400 validation_error, not 404", async () => {
      // A 404 would say the robot is missing; the robot is there, the body names a cluster that is not the owner's.
      const { userId } = await newAccount(t);
      const robot = await robots.create(userId, { name: 'deployer' });
      const error = await expectApiError(
        robots.createKey(userId, robot._id, {
          name: 'k',
          scopes: ['data:read'],
          clusterId: t.other.clusterId,
        }),
        'validation_error',
      );
      expect(error.details).toMatchObject({ in: 'body', field: 'clusterId' });
    });

    it('ends the keys of a deleted robot at once, even right after they were used', async () => {
      const { userId } = await newAccount(t);
      const robot = await robots.create(userId, { name: 'temp' });
      const { key, secret } = await robots.createKey(userId, robot._id, { name: 'k', scopes: ['data:read'] });
      expect((await t.call('GET', '/api/v1/data/robot', { key: secret })).status).toBe(200);
      expect(await robots.delete(userId, robot._id)).toEqual({ _id: robot._id, deleted: true });
      await expectError(await t.call('GET', '/api/v1/data/robot', { key: secret }), 401, 'unauthorized');
      expect(await t.server.storage.keys.findForAuth(key._id)).toBeNull();
      await expectApiError(robots.get(userId, robot._id), 'not_found');
    });
  });
});
