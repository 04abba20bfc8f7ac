import { z } from 'zod';
// Importing the package's entry registers every named schema, so components never depend on import order.
import '../index.js';
import { type ErrorCode, errorCodes } from '../errors.js';
import { HEADERS } from '../headers.js';
import { errorsOf, type RouteDefinition, routes } from '../routes/index.js';
import { SCOPE_ALIASES, SCOPES } from '../scopes.js';

type JsonSchema = Record<string, unknown>;

const COMPONENT_PREFIX = '#/components/schemas/';

const options = {
  target: 'draft-2020-12',
  unrepresentable: 'any',
  uri: (id: string) => `${COMPONENT_PREFIX}${id}`,
  // Keep `format: date-time` but drop zod's long validation pattern: every OpenAPI tool knows the format.
  override: (ctx: { jsonSchema: JsonSchema }) => {
    if (
      ctx.jsonSchema.format === 'date-time' ||
      ctx.jsonSchema.format === 'email' ||
      ctx.jsonSchema.format === 'uri'
    ) {
      delete ctx.jsonSchema.pattern;
    }
  },
} as const;

function strip(schema: JsonSchema): JsonSchema {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

/** Points the `#/$defs/…` references of an inline schema at the components of the same names, and drops its defs. */
function toComponentRefs(schema: JsonSchema): JsonSchema {
  const { $defs: _defs, ...rest } = schema;
  return JSON.parse(JSON.stringify(rest), (key, value) =>
    key === '$ref' && typeof value === 'string' && value.startsWith('#/$defs/')
      ? `${COMPONENT_PREFIX}${value.slice('#/$defs/'.length)}`
      : value,
  ) as JsonSchema;
}

/** A schema as used inside the document: a `$ref` when it is a named component, inline otherwise. */
function schemaRef(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const id = z.globalRegistry.get(schema)?.id;
  if (id) return { $ref: `${COMPONENT_PREFIX}${id}` };
  return toComponentRefs(strip(z.toJSONSchema(schema, { ...options, io }) as JsonSchema));
}

/**
 * A request body's schema. Generators such as openapi-typescript type a component's field that has a `default` as
 * always present, which is right for answers but makes a client send it; inside a requestBody they keep it
 * optional. So a request schema whose fields have defaults must not be a named component: it is written inline.
 */
function requestSchema(route: RouteDefinition, schema: z.ZodType): JsonSchema {
  const ref = schemaRef(schema, 'input');
  const id = z.globalRegistry.get(schema)?.id;
  if (id) {
    const own = z.toJSONSchema(schema, { ...options, io: 'input' }) as JsonSchema;
    const fields = ((own.$defs as Record<string, JsonSchema> | undefined)?.[id]?.properties ?? {}) as Record<
      string,
      JsonSchema
    >;
    const defaulted = Object.keys(fields).filter((name) => 'default' in fields[name]!);
    if (defaulted.length > 0)
      throw new Error(
        `The body of ${route.id} is the component ${id}, whose fields have defaults (${defaulted.join(', ')}): drop its id so that it is written inline`,
      );
  }
  return ref;
}

function parameters(route: RouteDefinition): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const [location, shape] of [
    ['path', route.params],
    ['query', route.query],
  ] as const) {
    if (!shape) continue;
    for (const [name, field] of Object.entries(shape.shape) as [string, z.ZodType][]) {
      const schema = strip(z.toJSONSchema(field, { ...options, io: 'input' }) as JsonSchema);
      const { description, example, ...rest } = schema;
      out.push({
        name,
        in: location,
        required: location === 'path' || !field.safeParse(undefined).success,
        ...(description ? { description } : {}),
        ...(example !== undefined ? { example } : {}),
        schema: rest,
      });
    }
  }
  if (route.auth === 'data') {
    out.push({
      name: HEADERS.clusterId.name,
      in: 'header',
      required: false,
      description: HEADERS.clusterId.description,
      schema: { type: 'string' },
    });
  }
  if (route.conditional) {
    const key = route.conditional === 'read' ? 'ifNoneMatch' : 'ifMatch';
    out.push({
      name: HEADERS[key].name,
      in: 'header',
      required: false,
      description: HEADERS[key].description,
      // An empty header is no condition at all.
      schema: { type: 'string' },
    });
  }
  if (route.idempotent) {
    out.push({
      name: HEADERS.idempotencyKey.name,
      in: 'header',
      required: false,
      description: HEADERS.idempotencyKey.description,
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
  }
  return out;
}

function header(key: keyof typeof HEADERS, type: 'string' | 'integer' = 'string'): [string, JsonSchema] {
  return [HEADERS[key].name, { description: HEADERS[key].description, schema: { type } }];
}

const RATE_LIMIT_HEADERS = [
  header('rateLimitLimit', 'integer'),
  header('rateLimitRemaining', 'integer'),
  header('rateLimitReset', 'integer'),
];

function responseHeaders(route: RouteDefinition, extra: (keyof typeof HEADERS)[] = []): JsonSchema {
  const entries: [string, JsonSchema][] = [header('requestId')];
  if (route.auth === 'data') entries.push(...RATE_LIMIT_HEADERS);
  for (const key of extra) entries.push(header(key, key === 'retryAfter' ? 'integer' : 'string'));
  return Object.fromEntries(entries);
}

/** The body of an error answer whose code is one of `codes`. */
function errorContent(codes: readonly ErrorCode[]): JsonSchema {
  return {
    'application/json': {
      schema: {
        allOf: [
          { $ref: `${COMPONENT_PREFIX}Error` },
          { type: 'object', properties: { code: { type: 'string', enum: codes } } },
        ],
      },
    },
  };
}

/**
 * Answers given before a request reaches its route (so without rate-limit headers), the same for every route:
 * described once under `components.responses`.
 */
const SHARED_RESPONSES = {
  414: { name: 'UriTooLong', code: 'uri_too_long' },
  431: { name: 'HeadersTooLarge', code: 'headers_too_large' },
} as const satisfies Record<number, { name: string; code: ErrorCode }>;

function sharedResponses(): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.values(SHARED_RESPONSES).map(({ name, code }) => [
      name,
      {
        description: `\`${code}\`: ${errorCodes[code].description}`,
        headers: Object.fromEntries([header('requestId')]),
        content: errorContent([code]),
      },
    ]),
  );
}

function errorResponses(route: RouteDefinition): Record<string, JsonSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorsOf(route)) {
    const status = errorCodes[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, JsonSchema> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const shared = SHARED_RESPONSES[status as keyof typeof SHARED_RESPONSES];
    if (shared && codes.length === 1 && codes[0] === shared.code) {
      out[String(status)] = { $ref: `#/components/responses/${shared.name}` };
      continue;
    }
    out[String(status)] = {
      description: codes.map((code) => `\`${code}\`: ${errorCodes[code].description}`).join('\n\n'),
      headers: responseHeaders(route, status === 429 ? ['retryAfter'] : []),
      content: errorContent(codes),
    };
  }
  return out;
}

function operation(route: RouteDefinition): JsonSchema {
  const op: JsonSchema = {
    operationId: route.id,
    tags: [route.tag],
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    parameters: parameters(route),
  };
  if (route.body) {
    op.requestBody = {
      required: route.bodyRequired ?? true,
      content: { 'application/json': { schema: requestSchema(route, route.body) } },
      ...(route.bodyLimit ? { 'x-body-limit': route.bodyLimit } : {}),
    };
  }
  if (route.streamBody) {
    op.requestBody = {
      required: true,
      content: Object.fromEntries(
        Object.entries(route.streamBody).map(([type, description]) => [
          type,
          { schema: { type: 'string', format: 'binary', description } },
        ]),
      ),
    };
  }
  op.responses = {
    [String(route.success.status)]: {
      description: route.success.description,
      headers: responseHeaders(route, [...(route.success.headers ?? [])]),
      // A redirect has no body to describe.
      ...(route.success.status >= 300 && route.success.status < 400
        ? {}
        : {
            content: {
              [route.success.contentType ?? 'application/json']: {
                schema: schemaRef(route.success.schema, 'output'),
              },
            },
          }),
    },
    // A conditional read whose If-None-Match holds: no body, the tag again.
    ...(route.conditional === 'read'
      ? {
          '304': {
            description: 'Not Modified: the document still has an entity tag that If-None-Match lists.',
            headers: responseHeaders(route, ['etag']),
          },
        }
      : {}),
    ...errorResponses(route),
  };
  if (route.auth === 'data') {
    op.security = [{ ApiKeyAuth: [] }, { BearerAuth: [] }];
    op['x-scopes'] = route.scopes;
    if (route.scopeNote) op['x-scopes-note'] = route.scopeNote;
  } else if (route.auth === 'session') {
    op.security = [{ BearerAuth: [] }];
  } else {
    op.security = [];
  }
  return op;
}

function components(): JsonSchema {
  const registry = z.toJSONSchema(z.globalRegistry, { ...options, io: 'output' }) as {
    schemas: Record<string, JsonSchema>;
  };
  const schemas = Object.fromEntries(
    Object.entries(registry.schemas)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([id, schema]) => [id, strip(schema)]),
  );
  return {
    schemas,
    responses: sharedResponses(),
    securitySchemes: {
      ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'An API key, `svc_…`.' },
      BearerAuth: {
        type: 'http',
        scheme: 'bearer',
        description: 'A session token from sign-in, or an API key (`svc_…`) sent as a bearer token.',
      },
    },
  };
}

/** Builds the OpenAPI 3.1 document of the whole API from the route table and the schemas. */
export function buildOpenApiDocument(): JsonSchema {
  const paths: Record<string, JsonSchema> = {};
  for (const route of routes) {
    paths[route.path] ??= {};
    (paths[route.path] as JsonSchema)[route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'dataplatform API',
      version: '1.0.0',
      description:
        'Documents in collections, SQL and batch helpers, webhooks, API keys and sessions. Every error answer is `{ error, code, requestId }`; see `x-error-codes` for the registry.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: 'http://localhost:5000', description: 'Local development server' }],
    tags: [
      { name: 'data', description: 'Documents in collections' },
      { name: 'auth', description: 'Accounts and sessions' },
      { name: 'settings', description: 'Account settings' },
      { name: 'logs', description: 'Activity of an account' },
      { name: 'keys', description: 'API keys: life cycle and usage history' },
      { name: 'robots', description: 'Service accounts that own API keys' },
      { name: 'webhooks', description: 'Subscriptions to document events, their deliveries and attempts' },
      { name: 'billing', description: 'Plan, trial, usage, invoices, credits and payments' },
    ],
    paths,
    components: components(),
    'x-error-codes': Object.fromEntries(
      Object.entries(errorCodes).map(([code, e]) => [
        code,
        { status: e.status, message: e.message, description: e.description },
      ]),
    ),
    'x-scopes': { scopes: SCOPES, aliases: SCOPE_ALIASES },
  };
}
