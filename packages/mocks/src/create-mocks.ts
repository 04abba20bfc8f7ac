import {
  batchRoutes,
  checkIdempotencyKey,
  effectiveScopes,
  idempotencySubject,
  mayReadDocuments,
  type RateTier,
  type RouteDefinition,
  rateTierOf,
  routes,
  SCOPES,
  writeReceipt,
} from '@dataplatform/contract';
import { http, type RequestHandler } from 'msw';
import { AccountModel, type MockClient, type MockMail, type MockSession } from './accounts.js';
import { type Answer, ApiError, errorAnswer, requestIdOf, toResponse } from './answers.js';
import { ChangeLog } from './change-log.js';
import type { Operation } from './document-operations.js';
import { DocumentStore } from './document-store.js';
import { IdempotencyLedger } from './idempotency.js';
import { JobLedger } from './imports.js';
import { type AddKeyOptions, KeyRing, MOCK_API_KEY, type MockKey } from './keys.js';
import { clusterOf, type ManagedKey } from './managed-keys.js';
import { createMockStore, type MockStore } from './mock-store.js';
import { operations } from './operations.js';
import {
  type OperationInput,
  parseJsonBody,
  parseParams,
  parseQuery,
  parseSchemaBody,
  readBodyText,
  readStreamText,
} from './request-input.js';
import { WebhookStore } from './webhook-store.js';

/** The longest path segment the server's router accepts (percent-encoded); longer is 414 `uri_too_long`. */
const MAX_PATH_SEGMENT = 2048;

/** Where the handlers answer unless told otherwise: the server's default address. */
export const DEFAULT_BASE_URL = 'http://localhost:5000';

/** Options of {@link createDataPlatformMocks}. */
export interface DataPlatformMocksOptions {
  /** Origin (and optional path prefix) the handlers answer on; default `http://localhost:5000`. */
  baseUrl?: string;
  /** Device sign-in settings, as the server's `DATAPLATFORM_DEVICE_*` (default 600 s codes, 5 s between polls). */
  deviceSignIn?: { codeTtlSeconds?: number; pollIntervalSeconds?: number };
}

/** One mock API: its MSW handlers, a key that may do everything, and the in-memory model behind them. */
export interface DataPlatformMocks {
  /** Pass to `setupServer(...handlers)` (msw/node) or `setupWorker(...handlers)` (msw/browser). */
  handlers: RequestHandler[];
  /** A valid API key holding every scope. */
  apiKey: string;
  /** Adds an API key with the given scopes and status and returns it, for testing 401 and 403 answers. */
  addKey(options: AddKeyOptions): string;
  /** The documents and idempotency records the handlers read and write. */
  store: MockStore;
  /** Copies of the e-mail the mock server sent (password-reset links, with `resetToken`), oldest first. */
  outbox(): MockMail[];
}

interface MockState {
  keys: KeyRing;
  documents: DocumentStore;
  ledger: IdempotencyLedger;
  accounts: AccountModel;
  jobs: JobLedger;
  webhooks: WebhookStore;
  changes: ChangeLog;
}

const EVERY_SCOPE = effectiveScopes(SCOPES);
const BATCH_ROUTE_ID = batchRoutes[0].id;

/** A bearer value that is not an API key, when no X-API-Key is sent: a session token. */
function sessionTokenOf(request: Request): string | null {
  if (request.headers.has('x-api-key')) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization')?.trim() ?? '');
  return match?.[1] && !match[1].startsWith('svc_') ? match[1] : null;
}

/** The client address as the server behind a trusted proxy sees it: the first X-Forwarded-For entry. */
function clientOf(request: Request): MockClient {
  const forwarded = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim();
  return { ip: forwarded || '127.0.0.1', userAgent: request.headers.get('user-agent') };
}

/**
 * The credential checks of the server: public routes need none, account routes a session token (API keys are
 * refused), data routes an API key with the scope or a session token (which holds every scope).
 */
function authorize(
  request: Request,
  route: RouteDefinition,
  state: MockState,
): {
  scopes: ReadonlySet<string>;
  session: MockSession | null;
  headers: Record<string, string>;
  key?: MockKey;
} {
  if (route.auth === 'public') return { scopes: new Set(), session: null, headers: {} };
  const token = sessionTokenOf(request);
  if (token === null) return { ...state.keys.authorize(request, route, clientOf(request).ip), session: null };
  const session = state.accounts.verify(token);
  // The account's IP allowlist, right after the session and before the body is read, as on the server.
  if (route.ipGuarded) state.accounts.checkAllowlist(session.userId, clientOf(request));
  if (route.auth !== 'data') return { scopes: new Set(), session, headers: {} };
  // The user acts on their own cluster: naming any other is 403, whether it exists or not.
  const cluster = request.headers.get('x-cluster-id')?.trim();
  if (cluster && cluster !== clusterOf(session.userId))
    throw new ApiError('forbidden', 'No cluster of yours has this id');
  const headers = state.keys.countUser(session.userId, userTier(state, session.userId));
  return { scopes: EVERY_SCOPE, session, headers };
}

/** The rate-limit tier of a user's plan, as the server reads it from the billing account. */
function userTier(state: MockState, userId: string): RateTier {
  const billing = state.accounts.billing(userId);
  return rateTierOf({ plan: billing.plan, trialExpiresAt: billing.trialExpiresAt, enterprise: false });
}

function operationFor(route: RouteDefinition): Operation {
  const operation = (operations as Record<string, Operation | undefined>)[route.id];
  if (!operation) {
    throw new Error(
      `@dataplatform/mocks has no implementation of route ${route.id} (${route.method} ${route.path})`,
    );
  }
  return operation;
}

/** The If-Match or If-None-Match header of a conditional document route, when sent and not empty. */
function conditionsOf(route: RouteDefinition, request: Request): OperationInput['conditions'] {
  if (route.conditional === 'write') return { ifMatch: request.headers.get('if-match') || undefined };
  if (route.conditional === 'read') return { ifNoneMatch: request.headers.get('if-none-match') || undefined };
  return undefined;
}

/** Writes that answer with the stored document. */
const DOCUMENT_WRITES = new Set<string>(['data.create', 'data.replace', 'data.update']);

/**
 * An answer as the caller may see it: a caller that may write but not read gets its documents' system fields only
 * (`writeReceipt`), from single writes and from a batch, replays included.
 */
function forCaller(route: RouteDefinition, answer: Answer, scopes: ReadonlySet<string>): Answer {
  if (answer.isError || !(DOCUMENT_WRITES.has(route.id) || route.id === BATCH_ROUTE_ID)) return answer;
  if (mayReadDocuments(scopes)) return answer;
  if (route.id !== BATCH_ROUTE_ID)
    return { ...answer, body: writeReceipt(answer.body as Record<string, unknown>) };
  const batch = answer.body as { results: { data?: Record<string, unknown> }[] };
  const results = batch.results.map((result) =>
    result.data && '_createdAt' in result.data ? { ...result, data: writeReceipt(result.data) } : result,
  );
  return { ...answer, body: { ...batch, results } };
}

/** Like the server, only successful writes are recorded: a failed write changed nothing, so a retry may run again. */
function isRecordable(answer: Answer): boolean {
  return answer.status >= 200 && answer.status < 300;
}

function handlerFor(route: RouteDefinition, baseUrl: string, state: MockState): RequestHandler {
  const operation = operationFor(route);
  const path = baseUrl + route.path.replace(/\{(\w+)\}/g, ':$1');
  const method = route.method.toLowerCase() as Lowercase<RouteDefinition['method']>;

  return http[method](path, async (info) => {
    // A known key's answer goes into its usage history, whatever its status.
    const authenticated: { key?: MockKey; userId?: string } = {};
    const started = performance.now();
    const response = await answer(info, authenticated);
    if (authenticated.key)
      state.keys.managed.record(authenticated.key, info.request, response.status, clientOf(info.request).ip);
    const managed = authenticated.key as ManagedKey | undefined;
    const client = clientOf(info.request);
    state.accounts.requestLogs.record({
      method: info.request.method,
      url: new URL(info.request.url),
      status: response.status,
      durationMs: performance.now() - started,
      keyId: managed?.id ?? null,
      userId: authenticated.userId ?? null,
      ownerId: authenticated.userId ?? managed?.owner?.userId ?? null,
      ip: client.ip,
      userAgent: client.userAgent,
      requestId: response.headers.get('x-request-id') ?? requestIdOf(info.request),
    });
    return response;
  });

  async function answer(
    { request, params }: { request: Request; params: Record<string, string | readonly string[] | undefined> },
    authenticated: { key?: MockKey; userId?: string },
  ): Promise<Response> {
    const requestId = requestIdOf(request);
    const fail = (error: unknown) => {
      if (error instanceof ApiError) return errorAnswer(error);
      throw error; // a bug in the mocks: let MSW report it rather than disguise it as an API error
    };
    // Everything after the body is read runs synchronously, so lookup and record of an idempotency key cannot interleave.
    const run = (
      bodyText: string,
      scopes: ReadonlySet<string>,
      session: MockSession | null,
      streamText?: string,
    ): Answer => {
      try {
        const json = route.body
          ? parseJsonBody(bodyText, { eachDocument: route.id === BATCH_ROUTE_ID })
          : undefined;
        const isAccountRoute = route.auth !== 'data';
        const input = {
          params: parseParams(route, params),
          query: parseQuery(route, new URL(request.url)),
          body: isAccountRoute ? parseSchemaBody(route, json) : json,
          scopes,
          account: { model: state.accounts, session, client: clientOf(request) },
          jobs: state.jobs,
          userId: session?.userId ?? (authenticated.key as ManagedKey | undefined)?.owner?.userId ?? null,
          conditions: conditionsOf(route, request),
          lastEventId: request.headers.get('last-event-id') ?? undefined,
          ...(streamText === undefined
            ? {}
            : { stream: { text: streamText, contentType: request.headers.get('content-type') } }),
        };
        return operation(input, state.documents, state);
      } catch (error) {
        return fail(error);
      }
    };

    // The RateLimit-* headers of the key, once authorization counted the request: every later answer carries them.
    let limits: Record<string, string> = {};
    try {
      // The router's refusals come before anything else, as on the server: an over-long segment, then U+0000.
      if (new URL(request.url).pathname.split('/').some((segment) => segment.length > MAX_PATH_SEGMENT))
        throw new ApiError('uri_too_long', `A path segment is longer than ${MAX_PATH_SEGMENT} characters`);
      if (request.url.includes('%00'))
        throw new ApiError('validation_error', 'The URL carries U+0000 (%00), which no value may contain');
      // Authentication and authorization come before any validation, as on the server.
      const authorized = authorize(request, route, state);
      authenticated.key = authorized.key;
      if (authorized.session) authenticated.userId = authorized.session.userId;
      limits = authorized.headers;
      const { scopes, session } = authorized;
      const bodyText = await readBodyText(request, route);
      if (route.streamBody)
        return toResponse(run('', scopes, session, await readStreamText(request)), requestId);
      const idempotencyKey = route.idempotent ? request.headers.get('idempotency-key') : null;
      const keyRefused = checkIdempotencyKey(idempotencyKey);
      if (keyRefused) throw ApiError.fromViolation(keyRefused);
      const respond = (answer: Answer, headers: Record<string, string>) =>
        toResponse(forCaller(route, answer, scopes), requestId, headers);
      if (idempotencyKey === null) return respond(run(bodyText, scopes, session), limits);

      const fingerprint = idempotencySubject(route.method, new URL(request.url).pathname, bodyText);
      const seen = state.ledger.lookup(idempotencyKey, fingerprint);
      if (seen.kind === 'mismatch') throw new ApiError('idempotency_mismatch');
      if (seen.kind === 'replay') return respond(seen.answer, { ...limits, 'Idempotent-Replayed': 'true' });
      const answer = run(bodyText, scopes, session);
      if (isRecordable(answer)) state.ledger.record(idempotencyKey, fingerprint, answer);
      return respond(answer, limits);
    } catch (error) {
      return toResponse(fail(error), requestId, limits);
    }
  }
}

/** The methods of each path of the contract (HEAD with GET, as the server has it). */
function methodsByPath(): Map<string, Set<string>> {
  const byPath = new Map<string, Set<string>>();
  for (const route of routes) {
    const methods = byPath.get(route.path) ?? new Set<string>();
    methods.add(route.method);
    if (route.method === 'GET') methods.add('HEAD');
    byPath.set(route.path, methods);
  }
  return byPath;
}

/** Whether `path` puts a literal where `other` has its first parameter (`/data/sql` beside `/data/{collection}`). */
function takesFirstParameterOf(path: string, other: string): boolean {
  const own = path.split('/');
  const theirs = other.split('/');
  const at = theirs.findIndex((segment) => segment.startsWith('{'));
  if (path === other || own.length !== theirs.length || at < 0) return false;
  return !own[at]!.startsWith('{') && own.slice(0, at).every((segment, i) => segment === theirs[i]);
}

/** A handler answering the methods `methods` lacks on `path` with 405 `method_not_allowed` and `Allow`. */
function methodNotAllowed(baseUrl: string, path: string, methods: Set<string>): RequestHandler {
  const allowed = [...methods].sort();
  return http.all(baseUrl + path.replace(/\{(\w+)\}/g, ':$1'), ({ request }) => {
    if (methods.has(request.method)) return undefined;
    const url = new URL(request.url);
    const error = new ApiError(
      'method_not_allowed',
      `Method ${request.method} is not allowed on ${url.pathname}`,
      {
        allowed,
      },
    );
    return toResponse(errorAnswer(error), requestIdOf(request), { Allow: allowed.join(', ') });
  });
}

/** True when every segment of the path decodes as UTF-8 percent-encoding. */
function decodes(pathname: string): boolean {
  try {
    for (const segment of pathname.split('/')) decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/**
 * A first handler that answers a path that does not decode (`%ff`) with 400 `validation_error`, as the server's
 * router does; a RegExp, because MSW's own path matching would throw on it before any handler ran.
 */
function malformedPathHandler(baseUrl: string): RequestHandler {
  const escaped = baseUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return http.all(new RegExp(`^${escaped}/`), ({ request }) => {
    if (decodes(new URL(request.url).pathname)) return undefined;
    const error = new ApiError(
      'validation_error',
      'The URL is malformed: its path does not decode as UTF-8',
      {
        in: 'path',
      },
    );
    return toResponse(errorAnswer(error), requestIdOf(request));
  });
}

/**
 * For each path of the contract, a last handler that answers a method the path does not have with 405
 * `method_not_allowed` and `Allow`, as the server does (HEAD comes with GET there, so it is left to others).
 */
function methodNotAllowedHandlers(baseUrl: string): RequestHandler[] {
  return [...methodsByPath()].map(([path, methods]) => methodNotAllowed(baseUrl, path, methods));
}

/**
 * First handlers for the paths that are a resource of their own where another path has its first parameter: as on
 * the server, `GET /api/v1/data/sql` is 405 (Allow: POST), not a list of the collection "sql".
 */
function concretePathHandlers(baseUrl: string): RequestHandler[] {
  const byPath = methodsByPath();
  const paths = [...byPath.keys()];
  return paths
    .filter((path) => paths.some((other) => takesFirstParameterOf(path, other)))
    .map((path) => methodNotAllowed(baseUrl, path, byPath.get(path)!));
}

/** Counts `{param}` segments; routes with fewer come first so a fixed path (say `/data/sql`) wins over `/data/{collection}`. */
function parameterCount(route: RouteDefinition): number {
  return route.path.split('{').length - 1;
}

/**
 * Creates a mock of the dataplatform API: MSW handlers for every route of the contract, backed by an
 * in-memory model with the reference server's semantics.
 * @example
 * const mocks = createDataPlatformMocks();
 * const server = setupServer(...mocks.handlers);
 */
export function createDataPlatformMocks(options: DataPlatformMocksOptions = {}): DataPlatformMocks {
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const state: MockState = {
    keys: new KeyRing(),
    documents: new DocumentStore(),
    ledger: new IdempotencyLedger(),
    accounts: new AccountModel(),
    jobs: new JobLedger(),
    webhooks: new WebhookStore(),
    changes: new ChangeLog(),
  };
  state.keys.tierOf = (key) =>
    'owner' in key ? userTier(state, (key as ManagedKey).owner.userId) : undefined;
  state.documents.onChange((change) => {
    state.webhooks.capture(change);
    state.changes.capture(change);
  });
  state.accounts.triggers.webhooks = (id) => state.webhooks.get(id);
  state.accounts.devices.configure({ baseUrl, ...options.deviceSignIn });
  const ordered = [...routes].sort((a, b) => parameterCount(a) - parameterCount(b));
  return {
    handlers: [
      malformedPathHandler(baseUrl),
      ...concretePathHandlers(baseUrl),
      ...ordered.map((route) => handlerFor(route, baseUrl, state)),
      ...methodNotAllowedHandlers(baseUrl),
    ],
    apiKey: MOCK_API_KEY,
    addKey: (keyOptions) => state.keys.add(keyOptions),
    store: createMockStore(
      state.documents,
      state.ledger,
      state.accounts,
      state.jobs,
      state.webhooks,
      state.keys.managed,
      state.changes,
    ),
    outbox: () => state.accounts.outbox(),
  };
}
