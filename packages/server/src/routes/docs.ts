import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { contractValidation } from '../http/contract-validation.js';
import { ApiError } from '../http/errors.js';
import { LOGO_SVG, MARK_SVG } from '../pages/brand.js';

const require = createRequire(import.meta.url);

/** The committed OpenAPI document of the contract package. */
export function loadOpenApiDocument(): Record<string, unknown> {
  return JSON.parse(readFileSync(require.resolve('@dataplatform/contract/openapi.json'), 'utf8'));
}

/** The base address a request reached this server at, as the document's only server should name it. */
function baseOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** The document as this server should present it: its own address as the only server. */
function withServer(document: Record<string, unknown>, base: string): Record<string, unknown> {
  return { ...document, servers: [{ url: base, description: 'This server' }] };
}

const EXPLORER = '/api-docs';
// The explorer's app sees requests only through inject(), from the route below, which always sets this header.
const BASE_HEADER = 'x-dataplatform-explorer-base';
// Hop-by-hop or recomputed headers of the explorer's answers, not copied onto the server's own answer.
const NOT_COPIED = new Set(['content-length', 'connection', 'keep-alive', 'transfer-encoding', 'date']);

/**
 * The explorer (Swagger UI and its files, @fastify/swagger's /json and /yaml) as a Fastify app of its own, built
 * on its first request: the libraries (swagger, swagger-ui, static files, a YAML writer) and their routes cost
 * start time and memory that a server whose explorer nobody opens never needs.
 */
async function buildExplorer(document: () => Record<string, unknown>): Promise<FastifyInstance> {
  const [{ default: Fastify }, { default: swagger }, { default: swaggerUi }] = await Promise.all([
    import('fastify'),
    import('@fastify/swagger'),
    import('@fastify/swagger-ui'),
  ]);
  // Its routes bring no schema to compile either, so it is spared Ajv as the server is.
  const explorer = Fastify({ logger: false, schemaController: contractValidation });
  await explorer.register(swagger, { mode: 'static', specification: { document: document() as never } });
  await explorer.register(swaggerUi, {
    routePrefix: EXPLORER,
    uiConfig: { persistAuthorization: true, tryItOutEnabled: true, displayOperationId: true },
    // The product's name and mark, not the library's; no address bar, since the explorer shows this server's
    // own document only.
    logo: { type: 'image/svg+xml', content: Buffer.from(LOGO_SVG), href: '/dashboard', target: '_self' },
    theme: {
      title: 'dataplatform API',
      favicon: [
        {
          filename: 'mark.svg',
          rel: 'icon',
          sizes: '32x32',
          type: 'image/svg+xml',
          content: Buffer.from(MARK_SVG),
        },
      ],
      css: [
        {
          filename: 'dataplatform.css',
          content:
            '.swagger-ui .topbar { background: #16181d; } .swagger-ui .topbar .download-url-wrapper { display: none; }',
        },
      ],
    },
    transformSpecification: (_spec, request) => withServer(document(), String(request.headers[BASE_HEADER])),
  });
  await explorer.ready();
  return explorer;
}

/** Serves `/api/openapi.json` and the interactive explorer at `/api-docs` (files from the package, nothing fetched). */
export async function registerDocs(app: FastifyInstance): Promise<void> {
  // Read on the first request for it, then kept.
  let document: Record<string, unknown> | undefined;
  const openApi = () => {
    document ??= loadOpenApiDocument();
    return document;
  };
  app.get('/api/openapi.json', { schema: { hide: true } }, async (request, reply) => {
    reply.type('application/json; charset=utf-8');
    return withServer(openApi(), baseOf(request));
  });
  let built: Promise<FastifyInstance> | undefined;
  const explorer = () => {
    built ??= buildExplorer(openApi);
    return built;
  };
  app.addHook('onClose', async () => {
    await (await built?.catch(() => undefined))?.close();
  });
  // Every explorer address goes through the server's own hooks (request ids, IP allowlist, headers), then to the
  // explorer's app; what it does not know is the server's own 404 (another method on an explorer address is 405).
  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    const answer = await (await explorer()).inject({
      method: request.method as 'GET',
      url: request.url,
      headers: { ...request.headers, [BASE_HEADER]: baseOf(request) },
    });
    if (answer.statusCode === 404)
      throw new ApiError('not_found', `Route ${request.method} ${request.url.split('?')[0]} not found`);
    for (const [name, value] of Object.entries(answer.headers))
      if (!NOT_COPIED.has(name) && value !== undefined) reply.header(name, value);
    reply.code(answer.statusCode);
    // A redirect or a 304 has no body, and no content type either.
    return answer.rawPayload.length > 0 ? reply.send(answer.rawPayload) : reply.send();
  };
  app.get(EXPLORER, { schema: { hide: true } }, forward);
  app.get(`${EXPLORER}/*`, { schema: { hide: true } }, forward);
}
