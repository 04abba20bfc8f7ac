import type { FastifyServerOptions } from 'fastify';

/**
 * Fastify's own schema compilers, replaced. Every route validates its input with the contract's zod schemas
 * (`route-input.ts`) and sends text it made itself (`send-answer.ts`), so no route gives Fastify a schema to
 * compile. Without these factories Fastify would load Ajv and fast-json-stringify on every start, about a tenth of
 * the time it takes to build the app; with them, a route that does bring a schema fails at start instead of being
 * checked twice.
 */
export const contractValidation: FastifyServerOptions['schemaController'] = {
  compilersFactory: {
    buildValidator: () => refuse('validate'),
    buildSerializer: () => refuse('serialize'),
  },
};

function refuse(what: string): never {
  throw new Error(
    `a route gave Fastify a schema to ${what}; routes are checked by the contract (route-input.ts)`,
  );
}
