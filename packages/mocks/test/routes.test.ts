import { gunzipSync } from 'node:zlib';
import { routes } from '@dataplatform/contract';
import { describe, expect, it } from 'vitest';
import { operations } from '../src/operations.js';
import { BASE_URL, useMockApi } from './harness.js';

const { mocks, call } = useMockApi();

/**
 * Routes whose body is not a document: a valid body, and the scopes a key without any is told to hold
 * (the batch route checks them per operation, so they are not the route's own).
 */
const SAMPLES: Record<string, { body: unknown; required: string[] }> = {
  'data.sql': { body: { sql: 'SELECT * FROM routeCheck' }, required: ['data:read', 'query:execute'] },
  'data.batch': {
    body: { operations: [{ op: 'get', collection: 'routeCheck', id: 'r1' }] },
    required: ['data:read'],
  },
  'webhooks.create': {
    body: { url: 'https://example.com/hook', events: ['*'] },
    required: ['webhooks:manage'],
  },
  'webhooks.rotateSecret': { body: {}, required: ['webhooks:manage'] },
  'webhooks.test': { body: {}, required: ['webhooks:manage'] },
};

/** Fills a contract path with a seeded document's address and, for webhook routes, a subscription and its delivery. */
let schemaIndexes = 0;

/** A validator and an index `by_n` on `routeCheck`, for the schema routes to read, replace and remove. */
async function seedSchema(): Promise<void> {
  const user = await signUp();
  const headers = { Authorization: `Bearer ${user.token}` };
  await call('PUT', '/api/schema/collections/routeCheck/validator', {
    key: null,
    json: { schema: { type: 'object' } },
    headers,
  });
  await call('DELETE', '/api/schema/collections/routeCheck/indexes/by_n', { key: null, headers });
  await call('POST', '/api/schema/collections/routeCheck/indexes', {
    key: null,
    json: { name: 'by_n', fields: [{ path: 'n' }] },
    headers,
  });
}

function pathOf(template: string, ids = { webhookId: 'wh_x', deliveryId: 'dlv_x' }): string {
  return template
    .replace('{collection}', 'routeCheck')
    .replace('{id}', 'r1')
    .replace('{webhookId}', ids.webhookId)
    .replace('{deliveryId}', ids.deliveryId);
}

/** A subscription to routeCheck and the delivery the seeded document made for it. */
async function webhookWithDelivery() {
  const { body } = await call('POST', '/api/v1/data/webhooks', {
    json: { url: 'https://example.com/hook', events: ['*'], collection: 'routeCheck' },
  });
  mocks.store.seed('routeCheck', [{ _id: 'r1', n: 1 }]);
  const deliveries = await call('GET', `/api/v1/data/webhooks/${body._id}/deliveries`);
  return { webhookId: body._id as string, deliveryId: deliveries.body.data[0]._id as string };
}

/** Signs a user up through the mocks and returns their session token and credentials. */
async function signUp() {
  const email = `route-check-${Math.random().toString(36).slice(2)}@example.com`;
  const password = 'route check password';
  const result = await call('POST', '/api/auth/signup', { key: null, json: { email, password, name: 'R' } });
  return { token: result.body.token as string, userId: result.body.user._id as string, email, password };
}

/** An authenticator's answer as the mocks see it: they check flows and credential ids, not signatures. */
function fakeCredential(id: string) {
  return { id, rawId: id, type: 'public-key', response: { clientDataJSON: 'e30', transports: ['internal'] } };
}

async function passkeyRegistration(token: string, credentialId: string) {
  const headers = { Authorization: `Bearer ${token}` };
  const options = await call('POST', '/api/webauthn/register/options', { key: null, headers });
  return { flowId: options.body.flowId, response: fakeCredential(credentialId) };
}

/** Bodies of the account routes, made from a signed-up user (a reset token comes from the outbox). */
async function accountBody(
  id: string,
  user: { email: string; password: string; token: string },
): Promise<unknown> {
  const token = user.token;
  switch (id) {
    case 'auth.signup':
      return { email: `new-${user.email}`, password: 'another long password', name: 'New' };
    case 'auth.signin':
      return { email: user.email, password: user.password };
    case 'auth.forgotPassword':
      return { email: user.email };
    case 'auth.resetPassword': {
      await call('POST', '/api/auth/forgot-password', { key: null, json: { email: user.email } });
      return { token: mocks.outbox().at(-1)!.resetToken, password: 'a fresh long password' };
    }
    case 'auth.planChoice':
    case 'billing.setPlan':
      return { plan: 'team' };
    case 'billing.checkout':
      return { credits: 500 };
    case 'keys.create':
    case 'robots.keys.create':
      return { name: 'route check', scopes: ['data:read'] };
    case 'robots.create':
      return { name: 'route check' };
    case 'settings.setIpAllowlist':
      return { entries: ['127.0.0.1'] };
    case 'settings.update':
      return { account: { timezone: 'Europe/Paris' } };
    case 'notifications.setPreferences':
      return { backup_failed: { inApp: true, email: true } };
    case 'webauthn.register':
      return passkeyRegistration(token, 'route-check-credential');
    case 'auth.deviceApprove':
    case 'auth.deviceDeny': {
      const started = await call('POST', '/api/auth/device', { key: null });
      return { userCode: started.body.userCode };
    }
    case 'auth.deviceToken': {
      const started = await call('POST', '/api/auth/device', { key: null });
      await call('POST', '/api/auth/device/approve', {
        key: null,
        json: { userCode: started.body.userCode },
        headers: { Authorization: `Bearer ${token}` },
      });
      return { deviceCode: started.body.deviceCode };
    }
    case 'webauthn.authenticate': {
      await call('POST', '/api/webauthn/register/verify', {
        key: null,
        json: await passkeyRegistration(token, 'route-check-signin'),
        headers: { Authorization: `Bearer ${token}` },
      });
      const options = await call('POST', '/api/webauthn/authenticate/options', { key: null });
      return { flowId: options.body.flowId, response: fakeCredential('route-check-signin') };
    }
    default:
      return undefined;
  }
}

/** The id a key or robot route acts on: a key or robot of the signed-in user, made for the check. */
async function ownedId(tag: string, headers: Record<string, string> | undefined): Promise<string> {
  const json = { name: 'route check', scopes: ['data:read'] };
  if (tag === 'keys') return (await call('POST', '/api/keys', { key: null, json, headers })).body.key._id;
  if (tag === 'robots') return (await call('POST', '/api/robots', { key: null, json, headers })).body._id;
  throw new Error(`no owned id for ${tag}`);
}

/** A new user who joined `clusterId` by an invitation of the user with `headers`, accepted with the mailed token. */
async function joined(clusterId: string, headers: Record<string, string>) {
  const member = await signUp();
  await call('POST', `/api/clusters/${clusterId}/invitations`, {
    key: null,
    json: { email: member.email, role: 'developer' },
    headers,
  });
  const token = mocks
    .outbox()
    .filter((mail) => mail.to === member.email)
    .at(-1)!.invitationToken;
  await call('POST', '/api/clusters/invitations/accept', {
    key: null,
    json: { token },
    headers: { Authorization: `Bearer ${member.token}` },
  });
  return member;
}

/** Path and body of a cluster route, for a signed-up user on the team plan and their default cluster. */
async function clusterCall(
  route: { id: string; path: string },
  user: { userId: string; email: string; token: string },
  headers: Record<string, string>,
): Promise<{ path: string; json: unknown }> {
  await call('POST', '/api/auth/plan-choice', { key: null, json: { plan: 'team' }, headers });
  const clusterId = (await call('GET', '/api/clusters', { key: null, headers })).body.data[0]._id as string;
  const path = route.path.replace('{id}', clusterId);
  switch (route.id) {
    case 'clusters.create':
      return { path, json: { name: 'route check' } };
    case 'clusters.update':
      return { path, json: { name: 'route check' } };
    case 'clusters.invitations.create':
      return { path, json: { email: `invited-${user.email}`, role: 'viewer' } };
    case 'clusters.invitations.accept': {
      const owner = await signUp();
      const ownerHeaders = { Authorization: `Bearer ${owner.token}` };
      const theirs = (await call('GET', '/api/clusters', { key: null, headers: ownerHeaders })).body.data[0]
        ._id;
      await call('POST', `/api/clusters/${theirs}/invitations`, {
        key: null,
        json: { email: user.email, role: 'viewer' },
        headers: ownerHeaders,
      });
      const token = mocks
        .outbox()
        .filter((mail) => mail.to === user.email)
        .at(-1)!.invitationToken;
      return { path, json: { token } };
    }
    case 'clusters.members.update':
    case 'clusters.members.delete': {
      const member = await joined(clusterId, headers);
      return {
        path: path.replace('{userId}', member.userId),
        json: route.id === 'clusters.members.update' ? { role: 'viewer' } : undefined,
      };
    }
    default:
      return { path, json: undefined };
  }
}

/**
 * A function route's request: a function (and for trigger routes a trigger on it) of a new user, and for the key
 * routes a key of that user, whose cluster the data-plane routes act on.
 */
async function functionCall(route: { id: string; path: string; tag: string }) {
  const user = await signUp();
  const headers = { Authorization: `Bearer ${user.token}` };
  const code = 'export default () => null;';
  const fn = (
    await call('POST', '/api/functions', { key: null, json: { name: 'route-check', code }, headers })
  ).body;
  const trigger = (
    await call('POST', '/api/triggers', {
      key: null,
      json: {
        name: 'route check',
        source: { type: 'schedule', cron: '0 * * * *' },
        target: { function: fn._id },
      },
      headers,
    })
  ).body;
  const scopes = ['function:invoke', 'orchestration:execute'];
  const created = await call('POST', '/api/keys', {
    key: null,
    json: { name: 'route check', scopes },
    headers,
  });
  const bodies: Record<string, unknown> = {
    'functions.create': { name: 'route-check-2', code },
    'functions.deploy': { code },
    'functions.invoke': { a: 1 },
    'functions.invokeByName': { a: 1 },
    'triggers.create': {
      name: 'second',
      source: { type: 'schedule', cron: '0 * * * *' },
      target: { function: fn._id },
    },
    'triggers.update': { name: 'renamed' },
  };
  const id = route.tag === 'triggers' ? trigger._id : fn._id;
  return {
    path: route.path.replace('{id}', id).replace('{name}', fn.name),
    json: bodies[route.id],
    headers: route.id.endsWith('ByName') || route.id.endsWith('ByKey') ? undefined : headers,
    key: route.id.endsWith('ByName') || route.id.endsWith('ByKey') ? (created.body.secret as string) : null,
  };
}

/** A backup route's request: a backup of a new user's default cluster, for the routes that act on one. */
async function backupCall(route: { id: string; path: string }) {
  const user = await signUp();
  const headers = { Authorization: `Bearer ${user.token}` };
  const made = await call('POST', '/api/backups', { key: null, json: {}, headers });
  expect(made.status).toBe(202);
  const json =
    route.id === 'backups.setSchedule'
      ? { cron: '@daily', retain: 7 }
      : route.id === 'backups.create' || route.id === 'backups.restore'
        ? {}
        : undefined;
  return { path: route.path.replace('{id}', made.body._id), json, headers };
}

/** An intelligence route's request: a dataset and a model of a new user's default cluster, and a key of it. */
async function intelligenceCall(route: { id: string; path: string }) {
  const user = await signUp();
  const headers = { Authorization: `Bearer ${user.token}` };
  const collection = `ml${++intelligenceRuns}`;
  const operations = Array.from({ length: 12 }, (_, i) => ({
    op: 'insert',
    collection,
    data: { _id: `p${i}`, x: i, y: 2 * i },
  }));
  expect(
    (await call('POST', '/api/v1/data/batch', { key: null, json: { operations }, headers })).status,
  ).toBe(200);
  const dataset = await call('POST', '/api/intelligence/datasets', {
    key: null,
    json: { name: 'd', collection },
    headers,
  });
  const training = { name: 'm', datasetId: dataset.body._id, task: 'regression', target: 'y' };
  const model = await call('POST', '/api/intelligence/models', { key: null, json: training, headers });
  const made = await call('POST', '/api/keys', {
    key: null,
    json: { name: 'ml', scopes: ['query:execute', 'experiment:write'] },
    headers,
  });
  const bodies: Record<string, unknown> = {
    'intelligence.datasets.create': { name: 'again', collection },
    'intelligence.models.create': training,
    'intelligence.models.train': training,
    'intelligence.models.predict': { rows: [{ x: 1 }] },
    'intelligence.models.predictByKey': { rows: [{ x: 1 }] },
    'intelligence.predictions.create': {
      modelId: model.body._id,
      collection,
      outputCollection: `${collection}out`,
    },
  };
  const byKey = route.path.startsWith('/api/v1/');
  const id = route.id.startsWith('intelligence.datasets') ? dataset.body._id : model.body._id;
  return {
    path: route.path.replace('{id}', id),
    json: bodies[route.id],
    headers: byKey ? undefined : headers,
    key: byKey ? (made.body.secret as string) : null,
  };
}

let intelligenceRuns = 0;

describe('the route table', () => {
  it('has an implementation for every route of the contract', () => {
    for (const route of routes) expect(Object.keys(operations), route.id).toContain(route.id);
    // One for paths that do not decode, one per route, then one per path that answers the methods it does not have
    // with 405; before the routes, one more for each path that stands where another has its first parameter
    // (`/data/sql` beside `/data/{collection}`), so that those methods are 405 there too.
    const paths = [...new Set(routes.map((route) => route.path))];
    const concrete = paths.filter((path) =>
      paths.some((other) => {
        const [own, theirs] = [path.split('/'), other.split('/')];
        const at = theirs.findIndex((segment) => segment.startsWith('{'));
        return (
          path !== other &&
          own.length === theirs.length &&
          at >= 0 &&
          !own[at]!.startsWith('{') &&
          own.slice(0, at).every((segment, i) => segment === theirs[i])
        );
      }),
    );
    expect(concrete).toContain('/api/v1/data/sql');
    expect(mocks.handlers).toHaveLength(1 + routes.length + paths.length + concrete.length);
  });

  it.each(routes.map((route) => [route.id, route] as const))(
    '%s answers its documented success status and schema',
    async (_id, route) => {
      const ids = route.path.includes('{webhookId}') ? await webhookWithDelivery() : undefined;
      if (!ids) mocks.store.seed('routeCheck', [{ _id: 'r1', n: 1 }]);
      if (route.id === 'backups.download') {
        // The archive: gzip of NDJSON lines that any gunzip reads.
        const { path, headers } = await backupCall(route);
        const res = await fetch(`${BASE_URL}${path}`, { headers });
        expect(res.status).toBe(route.success.status);
        expect(res.headers.get('content-type')).toContain('application/gzip');
        const text = gunzipSync(Buffer.from(await res.arrayBuffer())).toString('utf8');
        const lines = text
          .trimEnd()
          .split('\n')
          .map((line) => JSON.parse(line));
        expect(lines[0]).toMatchObject({ format: 'dataplatform-backup', version: 1 });
        expect(lines.at(-1)).toMatchObject({ type: 'manifest' });
        return;
      }
      if ('websocket' in route && route.websocket) {
        // MSW speaks no WebSocket upgrade: the mocks answer as the server does to a GET without one.
        const res = await fetch(`${BASE_URL}${route.path}`, { headers: { 'X-API-Key': mocks.apiKey } });
        expect(res.status).toBe(426);
        expect(((await res.json()) as { code: string }).code).toBe('upgrade_required');
        return;
      }
      if (route.success.contentType) {
        // A stream: its media type instead of a JSON body.
        const credentials: Record<string, string> =
          route.auth === 'session'
            ? { authorization: `Bearer ${(await signUp()).token}` }
            : { 'X-API-Key': mocks.apiKey };
        const res = await fetch(`${BASE_URL}${pathOf(route.path, ids)}`, { headers: credentials });
        expect(res.status).toBe(route.success.status);
        expect(res.headers.get('content-type')).toContain(route.success.contentType);
        expect(res.headers.get('x-request-id')).toBeTruthy();
        return;
      }
      let result: Awaited<ReturnType<typeof call>>;
      if (route.tag === 'schema') await seedSchema();
      if (route.tag === 'backups') {
        const { path, json, headers } = await backupCall(route);
        result = await call(route.method, path, { key: null, json, headers });
      } else if (route.tag === 'intelligence') {
        const { path, json, headers, key } = await intelligenceCall(route);
        result = await call(route.method, path, { key, json, headers });
      } else if (route.tag === 'functions' || route.tag === 'triggers') {
        const { path, json, headers, key } = await functionCall(route);
        result = await call(route.method, path, { key, json, headers });
      } else if (route.auth === 'data') {
        const job = mocks.store.seedJob();
        result = await call(route.method, pathOf(route.path, ids).replace('/jobs/r1', `/jobs/${job._id}`), {
          json: route.body ? (SAMPLES[route.id]?.body ?? { n: 2 }) : undefined,
        });
      } else {
        const user = await signUp();
        const headers = route.auth === 'session' ? { Authorization: `Bearer ${user.token}` } : undefined;
        let json = await accountBody(route.id, user);
        const job = mocks.store.seedJob({}, user.userId);
        let path = route.path.replace('{id}', job._id);
        if (route.tag === 'clusters') ({ path, json } = await clusterCall(route, user, headers!));
        if (route.tag === 'schema') {
          path = pathOf(route.path).replace('{name}', 'by_n');
          if (route.id === 'schema.validator.put') json = { schema: { type: 'object' } };
          if (route.id === 'schema.indexes.create')
            json = { name: `i${++schemaIndexes}`, fields: [{ path: 'n' }] };
        }
        if (route.tag === 'keys' || route.tag === 'robots')
          path = route.path.replace('{id}', await ownedId(route.tag, headers));
        if (route.id === 'billing.invoices.get') {
          const list = await call('GET', '/api/billing/invoices', { key: null, headers });
          path = route.path.replace('{id}', list.body.data[0]._id);
        }
        if (route.tag === 'metrics') {
          const clusters = await call('GET', '/api/clusters', { key: null, headers });
          path = `${route.path}?clusterId=${clusters.body.data[0]._id}`;
        }
        if (route.id === 'logs.requests.get') {
          await call('GET', '/api/auth/profile', {
            key: null,
            headers: { ...headers, 'x-request-id': 'req-route-check' },
          });
          path = route.path.replace('{requestId}', 'req-route-check');
        }
        if (route.id === 'auth.googleCallback' || route.id === 'auth.githubCallback')
          path += '?code=c&state=s';
        if (route.id === 'notifications.read' || route.id === 'notifications.delete') {
          // Failed sign-ins lock the address, which the user is told of.
          for (let i = 0; i < 10; i++)
            await call('POST', '/api/auth/signin', {
              key: null,
              json: { email: user.email, password: 'wrong' },
            });
          const list = await call('GET', '/api/notifications', { key: null, headers });
          path = route.path.replace('{id}', list.body.data[0]._id);
        }
        if (route.id === 'webauthn.delete') {
          await call('POST', '/api/webauthn/register/verify', {
            key: null,
            json: await passkeyRegistration(user.token, 'route-check-delete'),
            headers,
          });
          path = path.replace('{passkeyId}', 'route-check-delete');
        }
        result = await call(route.method, path, { key: null, json, headers });
      }
      expect(result.status).toBe(route.success.status);
      const parsed = route.success.schema.safeParse(result.body);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
      expect(result.headers.get('x-request-id')).toBeTruthy();
    },
  );

  const dataRoutes = routes.filter((route) => route.auth === 'data');
  it.each(dataRoutes.map((route) => [route.id, route] as const))(
    '%s asks for the scopes the contract names',
    async (_id, route) => {
      const key = mocks.addKey({ scopes: [] });
      const sample = SAMPLES[route.id];
      const json = route.body ? (sample?.body ?? {}) : undefined;
      const result = await call(route.method, pathOf(route.path), { key, json });
      expect(result.status).toBe(403);
      expect(result.body.details).toMatchObject({ required: sample?.required ?? [...route.scopes] });
    },
  );

  const sessionRoutes = routes.filter((route) => route.auth === 'session');
  it.each(sessionRoutes.map((route) => [route.id, route] as const))(
    '%s refuses API keys with 401 unauthorized, as the server does',
    async (_id, route) => {
      const result = await call(route.method, route.path, { json: route.body ? {} : undefined });
      expect(result.status).toBe(401);
      expect(result.body.code).toBe('unauthorized');
    },
  );
});
