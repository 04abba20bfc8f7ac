import { Deleted } from '../schemas/common.js';
import { InvocationListQuery } from '../schemas/function.js';
import {
  Trigger,
  TriggerCreate,
  TriggerList,
  TriggerListQuery,
  TriggerParams,
  TriggerRun,
  TriggerRunList,
  TriggerUpdate,
} from '../schemas/trigger.js';
import type { RouteDefinition } from './types.js';

const tag = 'triggers';

const ROLES =
  "Owners, admins and developers of the trigger's cluster may call it (403 `forbidden` for viewers); a trigger of a cluster the caller is no member of is 404 `not_found`.";

const CHECKS =
  'An invalid cron expression or time zone is 400 `validation_error`; a target that does not exist, or is in another cluster, is 404 `not_found`. Nothing is stored then.';

/** Triggers of the signed-in user's clusters, under /api/triggers. Session token only. */
export const triggerRoutes = [
  {
    id: 'triggers.create',
    method: 'POST',
    path: '/api/triggers',
    tag,
    summary: 'Create a trigger',
    description: `A document trigger runs its target once per matching event (at least once, in order per document, held while the cluster is paused); a schedule trigger runs once per tick in exactly one instance. ${CHECKS} Owners, admins and developers only (403 \`forbidden\`).`,
    auth: 'session',
    scopes: [],
    body: TriggerCreate,
    success: { status: 201, description: 'The new trigger', schema: Trigger },
    errors: ['validation_error', 'not_found', 'forbidden'],
  },
  {
    id: 'triggers.list',
    method: 'GET',
    path: '/api/triggers',
    tag,
    summary: 'List triggers',
    description: 'The triggers of every cluster the caller is a member of, or of `clusterId`, oldest first.',
    auth: 'session',
    scopes: [],
    query: TriggerListQuery,
    success: { status: 200, description: 'A page of triggers', schema: TriggerList },
    errors: ['validation_error'],
  },
  {
    id: 'triggers.get',
    method: 'GET',
    path: '/api/triggers/{id}',
    tag,
    summary: 'Get a trigger',
    description: 'Any member of its cluster may read it.',
    auth: 'session',
    scopes: [],
    params: TriggerParams,
    success: { status: 200, description: 'The trigger', schema: Trigger },
    errors: ['not_found'],
  },
  {
    id: 'triggers.update',
    method: 'PATCH',
    path: '/api/triggers/{id}',
    tag,
    summary: 'Change a trigger',
    description: `${CHECKS} ${ROLES}`,
    auth: 'session',
    scopes: [],
    params: TriggerParams,
    body: TriggerUpdate,
    success: { status: 200, description: 'The trigger', schema: Trigger },
    errors: ['not_found', 'forbidden'],
  },
  {
    id: 'triggers.delete',
    method: 'DELETE',
    path: '/api/triggers/{id}',
    tag,
    summary: 'Delete a trigger',
    description: ROLES,
    auth: 'session',
    scopes: [],
    params: TriggerParams,
    success: { status: 200, description: 'Deleted', schema: Deleted },
    errors: ['not_found', 'forbidden'],
  },
  {
    id: 'triggers.pause',
    method: 'POST',
    path: '/api/triggers/{id}/pause',
    tag,
    summary: 'Pause a trigger',
    description: `It fires nothing until resumed; events and ticks meanwhile are skipped, not held. ${ROLES}`,
    auth: 'session',
    scopes: [],
    params: TriggerParams,
    success: { status: 200, description: 'The paused trigger', schema: Trigger },
    errors: ['not_found', 'forbidden'],
  },
  {
    id: 'triggers.resume',
    method: 'POST',
    path: '/api/triggers/{id}/resume',
    tag,
    summary: 'Resume a trigger',
    description: ROLES,
    auth: 'session',
    scopes: [],
    params: TriggerParams,
    success: { status: 200, description: 'The active trigger', schema: Trigger },
    errors: ['not_found', 'forbidden'],
  },
  {
    id: 'triggers.run',
    method: 'POST',
    path: '/api/triggers/{id}/run',
    tag,
    summary: 'Run a trigger now',
    description: `One manual run with the input \`{ "manual": true }\`; the answer is 202 with the queued run, whose outcome \`GET …/runs\` shows. A paused cluster is 503 \`cluster_unavailable\`. ${ROLES}`,
    auth: 'session',
    scopes: [],
    params: TriggerParams,
    success: { status: 202, description: 'The queued run', schema: TriggerRun },
    errors: ['not_found', 'forbidden', 'cluster_unavailable'],
  },
  {
    id: 'triggers.runs',
    method: 'GET',
    path: '/api/triggers/{id}/runs',
    tag,
    summary: "List a trigger's runs",
    description: 'Newest first. Any member of its cluster may read them.',
    auth: 'session',
    scopes: [],
    params: TriggerParams,
    query: InvocationListQuery,
    success: { status: 200, description: 'A page of runs', schema: TriggerRunList },
    errors: ['not_found'],
  },
] as const satisfies readonly RouteDefinition[];

/** Running a trigger on the data plane, with an API key of its cluster. */
export const triggerKeyRoutes = [
  {
    id: 'triggers.runByKey',
    method: 'POST',
    path: '/api/v1/triggers/{id}/run',
    tag,
    summary: 'Run a trigger now, with a key',
    description:
      "One manual run of a trigger of the key's cluster (202 with the queued run); another cluster's trigger is 404 `not_found`.",
    auth: 'data',
    scopes: ['orchestration:execute'],
    params: TriggerParams,
    success: { status: 202, description: 'The queued run', schema: TriggerRun },
    errors: ['not_found'],
  },
] as const satisfies readonly RouteDefinition[];
