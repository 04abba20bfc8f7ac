import type {
  functionKeyRoutes,
  functionRoutes,
  triggerKeyRoutes,
  triggerRoutes,
} from '@dataplatform/contract';
import { planOf } from './clusters.js';
import type { Operation } from './document-operations.js';
import type { FunctionCaller } from './functions.js';
import { clusterOf } from './managed-keys.js';
import type { OperationInput } from './request-input.js';

type FunctionRouteId = (typeof functionRoutes | typeof functionKeyRoutes)[number]['id'];
type TriggerRouteId = (typeof triggerRoutes | typeof triggerKeyRoutes)[number]['id'];
type Page = { limit: number; skip: number; clusterId?: string };

/** The signed-in caller of a function or trigger route (the session was checked before it, as on the server). */
function callerOf(input: OperationInput): FunctionCaller {
  const account = input.account;
  if (!account?.session) throw new Error('function and trigger routes need a session');
  const userId = account.session.userId;
  return { userId, account: planOf(account.model.billing(userId)), clusters: account.model.clusters };
}

/** The cluster a key acts on in the mocks: its owner's default cluster. */
function keyCluster(input: OperationInput): string {
  return input.userId ? clusterOf(input.userId) : 'cls_mock';
}

function model(input: OperationInput) {
  if (!input.account) throw new Error('function and trigger routes need the account model');
  return input.account.model;
}

const ok = (body: unknown, status = 200) => ({ status, body });

/** The behaviour of `/api/functions/*` and `/api/v1/functions/{name}/invoke`; code is stored, never run. */
export const functionOperations: Record<FunctionRouteId, Operation> = {
  'functions.create': (i) => ok(model(i).functions.create(callerOf(i), i.body as never), 201),
  'functions.list': (i) => ok(model(i).functions.list(callerOf(i), i.query as Page)),
  'functions.get': (i) => ok(model(i).functions.get(callerOf(i), i.params.id!)),
  'functions.deploy': (i) => ok(model(i).functions.deploy(callerOf(i), i.params.id!, i.body as never)),
  'functions.delete': (i) => ok(model(i).functions.delete(callerOf(i), i.params.id!)),
  'functions.invoke': (i) => ok(model(i).functions.invoke(callerOf(i), i.params.id!)),
  'functions.invocations': (i) =>
    ok(model(i).functions.invocations(callerOf(i), i.params.id!, i.query as Page)),
  'functions.invokeByName': (i) => ok(model(i).functions.invokeByName(keyCluster(i), i.params.name!)),
};

/** The behaviour of `/api/triggers/*` and `/api/v1/triggers/{id}/run`; nothing fires on its own in the mocks. */
export const triggerOperations: Record<TriggerRouteId, Operation> = {
  'triggers.create': (i) => ok(model(i).triggers.create(callerOf(i), i.body as never), 201),
  'triggers.list': (i) => ok(model(i).triggers.list(callerOf(i), i.query as Page)),
  'triggers.get': (i) => ok(model(i).triggers.get(callerOf(i), i.params.id!)),
  'triggers.update': (i) => ok(model(i).triggers.update(callerOf(i), i.params.id!, i.body as never)),
  'triggers.delete': (i) => ok(model(i).triggers.delete(callerOf(i), i.params.id!)),
  'triggers.pause': (i) => ok(model(i).triggers.setActive(callerOf(i), i.params.id!, false)),
  'triggers.resume': (i) => ok(model(i).triggers.setActive(callerOf(i), i.params.id!, true)),
  'triggers.run': (i) => ok(model(i).triggers.run(callerOf(i), i.params.id!), 202),
  'triggers.runs': (i) => ok(model(i).triggers.runs(callerOf(i), i.params.id!, i.query as Page)),
  'triggers.runByKey': (i) => ok(model(i).triggers.runInCluster(keyCluster(i), i.params.id!), 202),
};
