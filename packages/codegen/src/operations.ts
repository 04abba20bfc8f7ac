import type { OpenAPIDocument, OperationObject, Parameter, Schema } from './openapi.js';
import { refName } from './openapi.js';

/** How an operation's request body travels. */
export type Body =
  | { kind: 'none' }
  | { kind: 'json'; schema: Schema; required: boolean }
  /** Bytes sent as they are (an upload), in one of the media types. */
  | { kind: 'raw'; mediaTypes: string[] };

/** What an operation answers, as a client hands it back. */
export type Result =
  | { kind: 'json'; schema: Schema | undefined }
  /** A list route (`limit` and `skip` in, `{ data, total }` out): the client walks its pages. */
  | { kind: 'page'; item: Schema }
  /** A server-sent event stream. */
  | { kind: 'events' }
  /** A redirect: the client hands back the `Location`. */
  | { kind: 'redirect' };

/** One operation of the contract, in the terms every language's generator uses. */
export interface Operation {
  /** The operationId, e.g. `data.jobs.list`: its segments but the last name the resource, the last the method. */
  id: string;
  resource: string[];
  name: string;
  method: string;
  path: string;
  summary: string;
  pathParams: Parameter[];
  queryParams: Parameter[];
  body: Body;
  result: Result;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Every operation of the document, in the document's order. */
export function operationsOf(doc: OpenAPIDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (op) operations.push(operationOf(doc, path, method.toUpperCase(), op));
    }
  }
  return operations;
}

function operationOf(doc: OpenAPIDocument, path: string, method: string, op: OperationObject): Operation {
  const segments = op.operationId.split('.');
  const parameters = op.parameters ?? [];
  const order = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const pathParams = order.map((name) => {
    const found = parameters.find((p) => p.in === 'path' && p.name === name);
    if (!found) throw new Error(`${op.operationId}: path parameter ${name} is not described`);
    return found;
  });
  const queryParams = parameters.filter((p) => p.in === 'query');
  return {
    id: op.operationId,
    resource: segments.slice(0, -1),
    name: segments[segments.length - 1]!,
    method,
    path,
    summary: op.summary ?? op.operationId,
    pathParams,
    queryParams,
    body: bodyOf(op),
    result: resultOf(doc, method, queryParams, op),
  };
}

function bodyOf(op: OperationObject): Body {
  const content = op.requestBody?.content;
  if (!content) return { kind: 'none' };
  const types = Object.keys(content);
  // A body whose every form is binary (an import's NDJSON, JSON array, CSV or gzip) is sent as bytes.
  if (types.every((type) => content[type]?.schema?.format === 'binary'))
    return { kind: 'raw', mediaTypes: types };
  const json = content['application/json']?.schema;
  if (!json) throw new Error(`${op.operationId}: a body that is neither JSON nor binary`);
  return { kind: 'json', schema: json, required: op.requestBody?.required === true };
}

function resultOf(doc: OpenAPIDocument, method: string, query: Parameter[], op: OperationObject): Result {
  const success = Object.entries(op.responses).filter(([status]) => /^[23]/.test(status));
  if (success.length > 0 && success.every(([status]) => status.startsWith('3'))) return { kind: 'redirect' };
  const content = success.find(([status]) => status.startsWith('2'))?.[1].content ?? {};
  if (content['text/event-stream']) return { kind: 'events' };
  const schema = content['application/json']?.schema;
  const names = new Set(query.map((p) => p.name));
  if (method === 'GET' && names.has('limit') && names.has('skip') && schema) {
    const resolved = resolve(doc, schema);
    const data = resolved.properties?.data;
    if (data?.type === 'array' && data.items && resolved.properties?.total)
      return { kind: 'page', item: data.items };
  }
  return { kind: 'json', schema };
}

/** A schema with its `$ref` followed. */
export function resolve(doc: OpenAPIDocument, schema: Schema): Schema {
  let current = schema;
  for (let depth = 0; current.$ref && depth < 16; depth++) {
    const target = doc.components.schemas[refName(current.$ref)];
    if (!target) throw new Error(`unknown schema ${current.$ref}`);
    current = target;
  }
  return current;
}

/** A group of operations under one name (`data`, `data.jobs`), with its nested groups. */
export interface Resource {
  path: string[];
  operations: Operation[];
  children: Map<string, Resource>;
}

/** The operations as a tree of resources, as a client exposes them: `client.data.jobs.list`. */
export function resourceTree(operations: Operation[]): Resource {
  const root: Resource = { path: [], operations: [], children: new Map() };
  for (const op of operations) {
    let node = root;
    for (const name of op.resource) {
      let child = node.children.get(name);
      if (!child) {
        child = { path: [...node.path, name], operations: [], children: new Map() };
        node.children.set(name, child);
      }
      node = child;
    }
    node.operations.push(op);
  }
  return root;
}
