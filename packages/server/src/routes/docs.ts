import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyRequest } from 'fastify';

const require = createRequire(import.meta.url);

/** The committed OpenAPI document of the contract package. */
export function loadOpenApiDocument(): Record<string, unknown> {
  return JSON.parse(readFileSync(require.resolve('@dataplatform/contract/openapi.json'), 'utf8'));
}

/** The document as this server should present it: its own address as the only server. */
function forRequest(document: Record<string, unknown>, request: FastifyRequest): Record<string, unknown> {
  return {
    ...document,
    servers: [{ url: `${request.protocol}://${request.host}`, description: 'This server' }],
  };
}

/** Serves `/api/openapi.json` and the interactive explorer at `/api-docs` (files from the package, nothing fetched). */
export async function registerDocs(app: FastifyInstance): Promise<void> {
  const document = loadOpenApiDocument();
  app.get('/api/openapi.json', { schema: { hide: true } }, async (request, reply) => {
    reply.type('application/json; charset=utf-8');
    return forRequest(document, request);
  });
  await app.register(swagger, { mode: 'static', specification: { document: document as never } });
  await app.register(swaggerUi, {
    routePrefix: '/api-docs',
    uiConfig: { persistAuthorization: true, tryItOutEnabled: true, displayOperationId: true },
    transformSpecification: (_spec, request) => forRequest(document, request),
  });
}
