import { readFileSync } from 'node:fs';
import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { errorCodes, errorsOf, routes } from '../src/index.js';
import { buildOpenApiDocument } from '../src/openapi/build.js';

const document = buildOpenApiDocument() as {
  openapi: string;
  info: { version: string };
  paths: Record<
    string,
    Record<string, { operationId: string; security: unknown[]; responses: Record<string, unknown> }>
  >;
};

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document with version 1.0.0', async () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.0.0');
    const result = await validate(structuredClone(document) as never);
    expect(result.valid, JSON.stringify(result)).toBe(true);
  });

  it('matches the committed openapi.json (run `pnpm codegen` when this fails)', () => {
    const committed = readFileSync(new URL('../openapi.json', import.meta.url), 'utf8');
    expect(committed).toBe(`${JSON.stringify(document, null, 2)}\n`);
  });

  it('describes every route of the table with both credentials on data routes and every error status', () => {
    for (const route of routes) {
      const operation = document.paths[route.path]?.[route.method.toLowerCase()];
      expect(operation, route.id).toBeDefined();
      expect(operation!.operationId).toBe(route.id);
      if (route.auth === 'data')
        expect(operation!.security).toEqual([{ ApiKeyAuth: [] }, { BearerAuth: [] }]);
      const statuses = new Set([
        String(route.success.status),
        // A conditional read answers 304 Not Modified when If-None-Match holds.
        ...(route.conditional === 'read' ? ['304'] : []),
        ...errorsOf(route).map((code) => String(errorCodes[code].status)),
      ]);
      expect(new Set(Object.keys(operation!.responses))).toEqual(statuses);
    }
  });
});
