import { pascalCase, snakeCase } from '../names.js';
import type { Parameter, Schema } from '../openapi.js';
import type { Operation, Resource } from '../operations.js';
import { docText, pythonName, pythonType } from './types.js';

/** How the resources module names a model: through the imported models module. */
const model = (name: string) => `_m.${name}`;

/** The class of a resource in one flavour: `DataJobsResource` or `AsyncDataJobsResource`. */
export function resourceClass(path: string[], flavour: Flavour): string {
  return `${flavour === 'async' ? 'Async' : ''}${pascalCase(path.join('.'))}Resource`;
}

export type Flavour = 'sync' | 'async';

/** The name an inline JSON body gets in the models module: `DataBatchBody`. */
export function inlineBodyName(op: Operation): string {
  return `${pascalCase(op.id)}Body`;
}

interface Argument {
  /** In the signature. */
  declaration: string;
  keywordOnly: boolean;
}

/** A query flag the server reads as `true`/`false` (or `1`/`0`) is a bool to a caller. */
const FLAG_VALUES = new Set(['0', '1', 'true', 'false']);

function paramType(parameter: Parameter): string {
  const values = parameter.schema?.enum;
  if (values?.length && values.every((value) => FLAG_VALUES.has(String(value)))) return 'bool';
  return pythonType(parameter.schema, model);
}

/** The f-string of an operation's path, each parameter percent-encoded by `segment`. */
function pathExpression(op: Operation): string {
  let text = op.path;
  for (const parameter of op.pathParams) {
    // Single quotes inside: an f-string may not repeat its own quotes before Python 3.12.
    text = text.replace(
      `{${parameter.name}}`,
      `{segment(${pythonName(snakeCase(parameter.name))}, '${parameter.name}')}`,
    );
  }
  return op.pathParams.length > 0 ? `f"${text}"` : JSON.stringify(text);
}

function bodyType(op: Operation, schema: Schema): string {
  // An inline object body is named in the models module (see modelsModule's `inline`).
  return schema.$ref || schema.type !== 'object' || !schema.properties
    ? pythonType(schema, model)
    : model(inlineBodyName(op));
}

function resultType(op: Operation, flavour: Flavour): string {
  switch (op.result.kind) {
    case 'page':
      return `${flavour === 'sync' ? 'SyncPage' : 'AsyncPager'}[${pythonType(op.result.item, model)}]`;
    case 'events':
      return flavour === 'sync' ? 'Iterator[ServerSentEvent]' : 'AsyncIterator[ServerSentEvent]';
    case 'redirect':
      return 'Optional[str]';
    case 'json':
      return op.result.schema ? pythonType(op.result.schema, model) : 'Any';
  }
}

/** One method of a resource class. */
export function method(op: Operation, flavour: Flavour): string {
  const args: Argument[] = op.pathParams.map((p) => ({
    declaration: `${pythonName(snakeCase(p.name))}: str`,
    keywordOnly: false,
  }));
  const call: string[] = [JSON.stringify(op.method), pathExpression(op)];
  if (op.body.kind === 'json') {
    const type = bodyType(op, op.body.schema);
    if (op.body.required) args.push({ declaration: `body: ${type}`, keywordOnly: false });
    else args.push({ declaration: `body: Optional[${type}] = None`, keywordOnly: true });
    call.push(op.body.required ? 'body=body' : 'body=NOT_GIVEN if body is None else body');
  }
  if (op.body.kind === 'raw') {
    args.push({ declaration: 'content: Content', keywordOnly: false });
    args.push({ declaration: 'content_type: Optional[str] = None', keywordOnly: true });
    call.push('content=content', 'headers={"content-type": content_type}');
  }
  const query = op.queryParams.map((p) => {
    const name = pythonName(snakeCase(p.name));
    args.push({
      declaration: p.required ? `${name}: ${paramType(p)}` : `${name}: Optional[${paramType(p)}] = None`,
      keywordOnly: true,
    });
    return `${JSON.stringify(p.name)}: ${name}`;
  });
  if (op.result.kind === 'events') {
    args.push({ declaration: 'last_event_id: Optional[str] = None', keywordOnly: true });
    call.push('last_event_id=last_event_id');
  }
  args.push({ declaration: 'options: Optional[RequestOptions] = None', keywordOnly: true });
  if (query.length > 0 || op.result.kind === 'page') call.push(`query={${query.join(', ')}}`);
  call.push('options=options');

  const positional = args.filter((a) => !a.keywordOnly).map((a) => a.declaration);
  const keyword = args.filter((a) => a.keywordOnly).map((a) => a.declaration);
  const signature = ['self', ...positional, '*', ...keyword].join(', ');
  const result = resultType(op, flavour);
  const name = pythonName(snakeCase(op.name));
  const isAsync = flavour === 'async' && (op.result.kind === 'json' || op.result.kind === 'redirect');
  const doc = `        """${docText(op.summary)}: \`${op.method} ${op.path}\`."""`;
  const lines = [`    ${isAsync ? 'async ' : ''}def ${name}(${signature}) -> ${result}:`, doc];
  const awaitText = isAsync ? 'await ' : '';
  const args_ = call.join(', ');
  switch (op.result.kind) {
    case 'page':
      lines.push(`        return self._client.get_page(${call.slice(1).join(', ')})`);
      break;
    case 'events':
      lines.push(`        return self._client.stream_events(${call.slice(1).join(', ')})`);
      break;
    case 'redirect':
      lines.push(`        response = ${awaitText}self._client.request_raw(${args_})`);
      lines.push(
        '        location: Optional[str] = response.headers.get("location")',
        '        return location',
      );
      break;
    case 'json':
      lines.push(
        `        return cast(${JSON.stringify(result)}, ${awaitText}self._client.request(${args_}))`,
      );
  }
  return lines.join('\n');
}

/** The class of one resource and, before it, the classes of its nested resources. */
export function resourceClasses(resource: Resource, flavour: Flavour): string[] {
  const out: string[] = [];
  for (const child of resource.children.values()) out.push(...resourceClasses(child, flavour));
  const name = resourceClass(resource.path, flavour);
  const base = flavour === 'sync' ? 'SyncResource' : 'AsyncResource';
  const client = flavour === 'sync' ? 'SyncAPIClient' : 'AsyncAPIClient';
  const lines = [
    `class ${name}(${base}):`,
    `    """\`client.${resource.path.map((p) => pythonName(snakeCase(p))).join('.')}\`: ${resource.operations.length} operation(s) of the contract."""`,
  ];
  if (resource.children.size > 0) {
    lines.push('', `    def __init__(self, client: ${client}) -> None:`, '        super().__init__(client)');
    for (const [childName, child] of resource.children) {
      lines.push(
        `        self.${pythonName(snakeCase(childName))} = ${resourceClass(child.path, flavour)}(client)`,
      );
    }
  }
  for (const op of resource.operations) lines.push('', method(op, flavour));
  out.push(lines.join('\n'));
  return out;
}
