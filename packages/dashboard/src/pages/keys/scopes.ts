import type { ApiKeyCreate } from '@dataplatform/sdk';

/** A scope a key can hold, as the API names it. */
export type Scope = ApiKeyCreate['scopes'][number];

/**
 * Every scope with what it allows. The type makes this list complete: a scope added to the contract fails the
 * dashboard's typecheck until it is described here.
 */
export const SCOPES: Record<Scope, string> = {
  'data:read': 'Read documents',
  'data:write': 'Write documents',
  'database:read': 'Read documents (alias)',
  'database:write': 'Write documents (alias)',
  'query:execute': 'Run the SQL helper and predictions',
  'webhooks:manage': 'Manage webhooks',
  'metadata:read': 'Read schemas and indexes',
  'logs:read': 'Read request logs',
  'function:invoke': 'Invoke functions',
  'orchestration:execute': 'Run triggers',
  'experiment:write': 'Train models',
  'notebook:create': 'Create notebooks',
  'team:manage': 'Manage the team',
  'settings:modify': 'Change settings',
  'billing:manage': 'Manage billing',
};
