import {
  effectiveScopes,
  type RouteDefinition,
  routes,
  SCOPES,
  satisfiesScope,
} from '@dataplatform/contract';
import type { Case, Step } from './case.js';

/** A segment longer than the router accepts (2048 characters). */
const LONG_SEGMENT = 'x'.repeat(2100);
/** Whitespace, repeated past a route's body limit: the body is too large before it is anything else. */
const FILLER = ' '.repeat(128);
/** The server-wide body limit, 1 MiB. */
const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** The route's path with placeholders: collections get the run's own name, other parameters a made-up id. */
function pathOf(route: RouteDefinition, long?: string): string {
  let first = true;
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (long && first) {
      first = false;
      return long;
    }
    return name === 'collection' ? 'c_{{$unique}}' : 'x';
  });
}

function title(route: RouteDefinition, what: string): string {
  return `${route.id}: ${what}`;
}

function refusal(
  route: RouteDefinition,
  what: string,
  request: Partial<Step['request']>,
  status: number,
  code: string,
): Step {
  return {
    title: title(route, what),
    request: { method: route.method, path: pathOf(route), ...request },
    expect: { status, code },
  };
}

/** A generated case: its title, steps and setup, marked as written by `pnpm codegen`. */
function generated(title: string, steps: Step[], setup?: Case['setup']): Case {
  return {
    $schema: '../case.schema.json',
    title,
    description: 'Generated from the route table by packages/conformance (`pnpm codegen`); do not edit.',
    ...(setup ? { setup } : {}),
    steps,
  };
}

/** A scope no data route asks for: what a key without the route's scope holds. */
const NARROW_SCOPE = SCOPES.find((scope) =>
  routes.every(
    (route) =>
      route.auth !== 'data' ||
      route.scopes.length === 0 ||
      !satisfiesScope(effectiveScopes([scope]), route.scopes),
  ),
)!;

const jsonBodyRoutes = () => routes.filter((route) => route.body !== undefined && !route.streamBody);

/** The user signs out, then calls each route with the ended session: 401 `session_expired`. */
function endedSession(of: readonly RouteDefinition[]): Step[] {
  const signOut: Step = {
    title: 'sign out',
    request: { method: 'POST', path: '/api/auth/logout', auth: 'user' },
    expect: { status: 200 },
  };
  return [
    signOut,
    ...of.map((route) => refusal(route, 'an ended session', { auth: 'user' }, 401, 'session_expired')),
  ];
}

/** Data routes: no credential, a paused key, a key without the scope, another cluster, an ended session. */
function dataCredentials(): Case {
  const data = routes.filter((route) => route.auth === 'data');
  const steps: Step[] = [
    {
      title: 'pause the key',
      request: { method: 'POST', path: '/api/keys/{{paused.key._id}}/pause', auth: 'user' },
      expect: { status: 200 },
    },
  ];
  for (const route of data) {
    steps.push(refusal(route, 'no credential', {}, 401, 'unauthorized'));
    steps.push(refusal(route, 'a paused key', { auth: 'paused' }, 401, 'key_paused'));
    if (route.scopes.length > 0)
      steps.push(
        refusal(route, "a key without the route's scope", { auth: 'narrow' }, 403, 'insufficient_scope'),
      );
    steps.push(
      refusal(
        route,
        'a session naming a cluster not its own',
        { auth: 'user', headers: { 'x-cluster-id': 'cls_not_yours' } },
        403,
        'forbidden',
      ),
    );
  }
  steps.push(...endedSession(data));
  return generated(
    'Every data route refuses a missing credential, a paused key, a key without its scope, a cluster not the caller’s and an ended session',
    steps,
    [
      { account: 'user' },
      { key: 'paused', owner: 'user', scopes: ['data:read'] },
      { key: 'narrow', owner: 'user', scopes: [NARROW_SCOPE] },
    ],
  );
}

/** Session routes: no credential, then an ended session. */
function sessionCredentials(): Case {
  const session = routes.filter((route) => route.auth === 'session');
  const steps: Step[] = session.map((route) => refusal(route, 'no credential', {}, 401, 'unauthorized'));
  steps.push(...endedSession(session));
  return generated(
    'Every account route that needs a session refuses a missing credential and an ended session with 401',
    steps,
    [{ account: 'user' }],
  );
}

/** Routes with a JSON body: malformed JSON, another media type, a body past the limit. */
function bodies(): Case {
  const steps: Step[] = [];
  for (const route of jsonBodyRoutes()) {
    const auth = route.auth === 'public' ? {} : { auth: 'user' };
    steps.push(
      refusal(
        route,
        'malformed JSON',
        { ...auth, headers: { 'content-type': 'application/json' }, body: '{"a":' },
        400,
        'invalid_json',
      ),
      refusal(
        route,
        'a body of another media type',
        { ...auth, headers: { 'content-type': 'text/plain' }, body: '{}' },
        415,
        'unsupported_media_type',
      ),
      refusal(
        route,
        'a body past the limit',
        {
          ...auth,
          headers: { 'content-type': 'application/json' },
          body: FILLER,
          repeatBody: Math.floor((route.bodyLimit ?? DEFAULT_BODY_LIMIT) / FILLER.length) + 1,
        },
        413,
        'payload_too_large',
      ),
    );
  }
  return generated(
    'Every route with a JSON body refuses malformed JSON (400), another media type (415) and a body past its limit (413)',
    steps,
    [{ account: 'user' }],
  );
}

/** Routes with path parameters: a segment past 2048 characters, refused before anything else. */
function longSegments(): Case {
  const steps = routes
    .filter((route) => route.params !== undefined)
    .map((route) => ({
      title: title(route, 'a path segment past 2048 characters'),
      request: { method: route.method, path: pathOf(route, LONG_SEGMENT) },
      expect: { status: 414, code: 'uri_too_long' },
    }));
  return generated(
    'Every route with a path parameter refuses a segment past 2048 characters with 414, before it looks at credentials',
    steps,
  );
}

/** Every route: a URL carrying U+0000 (`%00`) is refused before anything else. */
function nulInUrl(): Case {
  const steps = routes.map((route) => ({
    title: title(route, 'a URL carrying %00'),
    request: { method: route.method, path: `${pathOf(route)}?q=%00` },
    expect: { status: 400, code: 'validation_error' },
  }));
  return generated(
    'Every route refuses a URL that carries U+0000 with 400 validation_error, before it looks at credentials',
    steps,
  );
}

/** The generated cases by file name (without `.json`), as written under spec/conformance/generic. */
export function genericCases(): Record<string, Case> {
  return {
    'data-credentials': dataCredentials(),
    'session-credentials': sessionCredentials(),
    bodies: bodies(),
    'long-segments': longSegments(),
    'nul-in-url': nulInUrl(),
  };
}
