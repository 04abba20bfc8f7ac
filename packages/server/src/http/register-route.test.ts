import type { RouteDefinition } from '@dataplatform/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { Authenticator } from '../auth/authenticate.js';
import { registerErrorHandling } from './error-handler.js';
import { ApiError } from './errors.js';
import { registerJsonBody } from './json-body.js';
import { type RouteDeps, serveRoutes } from './register-route.js';
import type { RouteHandler } from './route-call.js';

const parses = { params: 0, query: 0, body: 0 };
const counted = <T extends z.ZodType>(schema: T, part: keyof typeof parses) =>
  schema.transform((value) => {
    parses[part] += 1;
    return value;
  });

const thing = {
  id: 'things.create',
  method: 'POST',
  path: '/things/{name}',
  tag: 'things',
  summary: 'Create a thing',
  auth: 'data',
  scopes: ['things:write'],
  params: z.object({ name: counted(z.string().regex(/^[a-z]+$/), 'params') }),
  query: z.object({ size: counted(z.coerce.number().int().min(1).default(3), 'query') }),
  body: z.strictObject({ color: counted(z.string(), 'body') }),
  success: { status: 201, description: 'The thing', schema: z.object({}) },
  errors: [],
} as const satisfies RouteDefinition;

const me = {
  id: 'things.me',
  method: 'GET',
  path: '/me',
  tag: 'things',
  summary: 'Who is signed in',
  auth: 'session',
  scopes: [],
  success: { status: 200, description: 'The session', schema: z.object({}) },
  errors: [],
} as const satisfies RouteDefinition;

const secret = {
  id: 'things.secret',
  method: 'PUT',
  path: '/secret',
  tag: 'things',
  summary: 'A session route behind the IP allowlist',
  auth: 'session',
  ipGuarded: true,
  scopes: [],
  body: z.object({}),
  success: { status: 200, description: 'Changed', schema: z.object({}) },
  errors: ['ip_blocked'],
} as const satisfies RouteDefinition;

const upload = {
  id: 'things.upload',
  method: 'POST',
  path: '/uploads',
  tag: 'things',
  summary: 'A large body, read by the service',
  auth: 'public',
  scopes: [],
  body: z.object({}),
  bodyLimit: 64,
  success: { status: 202, description: 'Taken', schema: z.object({}) },
  errors: [],
} as const satisfies RouteDefinition;

const table: readonly RouteDefinition[] = [thing, me, secret, upload];

function deps(): RouteDeps & {
  authenticate: ReturnType<typeof vi.fn>;
  ipAllowlist: ReturnType<typeof vi.fn>;
} {
  const authenticate = vi.fn(async (request: { headers: Record<string, unknown> }) => {
    if (request.headers['x-api-key'] !== 'good') throw new ApiError('unauthorized');
    return { kind: 'key', clusterId: 'c1', key: {} };
  });
  return {
    authenticate,
    auth: { authenticate } as unknown as Authenticator,
    requireSession: async (request) => {
      if (request.headers.authorization !== 'Bearer session') throw new ApiError('unauthorized');
    },
    ipAllowlist: vi.fn(async (request: { headers: Record<string, unknown> }) => {
      if (request.headers['x-from'] !== 'allowed') throw new ApiError('ip_blocked');
    }),
    ownBodyLimits: { 'things.upload': 16 },
  };
}

const handlers: Record<string, RouteHandler> = {
  'things.create': ({ params, query, body, principal }) => ({ params, query, body, principal }),
  'things.me': () => ({ me: true }),
  'things.secret': () => ({ changed: true }),
  'things.upload': ({ body }) => ({ text: body }),
};

let app: FastifyInstance | undefined;

async function serve(routeDeps = deps()) {
  app = Fastify();
  registerJsonBody(app);
  registerErrorHandling(app);
  serveRoutes(app, table, handlers, routeDeps);
  await app.ready();
  return app;
}

afterEach(async () => {
  await app?.close();
  app = undefined;
  for (const part of Object.keys(parses) as (keyof typeof parses)[]) parses[part] = 0;
});

describe('serveRoutes', () => {
  it('refuses to start when a contract route has no handler', () => {
    const { 'things.me': _, ...rest } = handlers;
    expect(() => serveRoutes(Fastify(), table, rest, deps())).toThrow('No handler for route things.me');
  });

  it('refuses to start when a handler has no contract route', () => {
    const extra = { ...handlers, 'things.gone': () => ({}) };
    expect(() => serveRoutes(Fastify(), table, extra, deps())).toThrow(
      'No contract route for handler things.gone',
    );
  });
});

describe('registerRoute', () => {
  it('checks path, query and body once and hands the handler the parsed values with the success status', async () => {
    const served = await serve();
    const response = await served.inject({
      method: 'POST',
      url: '/things/box?size=2',
      headers: { 'x-api-key': 'good' },
      payload: { color: 'red' },
    });
    expect(response.statusCode).toBe(201);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.json()).toEqual({
      params: { name: 'box' },
      query: { size: 2 },
      body: { color: 'red' },
      principal: { kind: 'key', clusterId: 'c1', key: {} },
    });
    expect(parses).toEqual({ params: 1, query: 1, body: 1 });
  });

  it('checks the credential with the route scopes and cluster action before the body is read', async () => {
    const routeDeps = deps();
    const served = await serve(routeDeps);
    const response = await served.inject({
      method: 'POST',
      url: '/things/box',
      payload: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(401);
    expect(routeDeps.authenticate).toHaveBeenCalledWith(
      expect.anything(),
      expect.anything(),
      ['things:write'],
      'data',
    );
  });

  it('answers 400 naming the field, and never calls the handler, for a value outside the schema', async () => {
    const served = await serve();
    const headers = { 'x-api-key': 'good' };
    const bad = [
      { url: '/things/BOX', payload: { color: 'red' }, field: 'name', where: 'path' },
      { url: '/things/box?size=0', payload: { color: 'red' }, field: 'size', where: 'query' },
      { url: '/things/box', payload: { color: 'red', shade: 1 }, field: 'shade', where: 'body' },
    ];
    for (const { url, payload, field, where } of bad) {
      const response = await served.inject({ method: 'POST', url, headers, payload });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'validation_error', details: { in: where, field } });
    }
    const array = await served.inject({ method: 'POST', url: '/things/box', headers, payload: [1] });
    expect(array.json()).toMatchObject({ code: 'invalid_body', error: 'Body must be a JSON object' });
  });

  it('puts the session check first on session routes', async () => {
    const served = await serve();
    expect((await served.inject({ method: 'GET', url: '/me' })).statusCode).toBe(401);
    const signedIn = await served.inject({
      method: 'GET',
      url: '/me',
      headers: { authorization: 'Bearer session' },
    });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toEqual({ me: true });
  });

  it('runs the IP allowlist on ipGuarded routes alone, after the session check and before the body is read', async () => {
    const routeDeps = deps();
    const served = await serve(routeDeps);
    const session = { authorization: 'Bearer session' };
    const put = (headers: Record<string, string>, payload: string) =>
      served.inject({
        method: 'PUT',
        url: '/secret',
        payload,
        headers: { 'content-type': 'application/json', ...headers },
      });
    expect((await put({}, '{}')).statusCode).toBe(401);
    expect(routeDeps.ipAllowlist).not.toHaveBeenCalled();
    const blocked = await put(session, '{not json');
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toMatchObject({ code: 'ip_blocked' });
    const allowed = await put({ ...session, 'x-from': 'allowed' }, '{}');
    expect(allowed.json()).toEqual({ changed: true });
    routeDeps.ipAllowlist.mockClear();
    expect((await served.inject({ method: 'GET', url: '/me', headers: session })).statusCode).toBe(200);
    expect(routeDeps.ipAllowlist).not.toHaveBeenCalled();
  });

  it('keeps the body of a route with a limit of its own as text, within that limit', async () => {
    const served = await serve();
    const taken = await served.inject({ method: 'POST', url: '/uploads', payload: '{"a":1}' });
    expect(taken.statusCode).toBe(202);
    expect(taken.json()).toEqual({ text: '{"a":1}' });
    const tooLarge = await served.inject({ method: 'POST', url: '/uploads', payload: `"${'x'.repeat(32)}"` });
    expect(tooLarge.statusCode).toBe(413);
  });

  it("keeps the contract's own body limit of a route the configuration does not set", async () => {
    const served = await serve({ ...deps(), ownBodyLimits: {} });
    const taken = await served.inject({ method: 'POST', url: '/uploads', payload: `"${'x'.repeat(32)}"` });
    expect(taken.statusCode).toBe(202);
    const tooLarge = await served.inject({ method: 'POST', url: '/uploads', payload: `"${'x'.repeat(64)}"` });
    expect(tooLarge.statusCode).toBe(413);
  });
});
