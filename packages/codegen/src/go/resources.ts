import { pascalCase } from '../names.js';
import type { Parameter, Schema } from '../openapi.js';
import type { Operation, Resource } from '../operations.js';
import { commentText, type GoTypes, goFieldName, goString } from './types.js';

/** The struct of a resource: `data.jobs` → `DataJobsResource`. */
export function resourceType(path: string[]): string {
  return `${pascalCase(path.join('.'))}Resource`;
}

/** A Go parameter name from an OpenAPI one: `clusterId` → `clusterID`-free camel case, never a keyword. */
function argName(name: string): string {
  const camel = pascalCase(name).replace(/^[A-Z]/, (c) => c.toLowerCase());
  return GO_KEYWORDS.has(camel) || RESERVED_ARGS.has(camel) ? `${camel}_` : camel;
}

const GO_KEYWORDS = new Set(
  'break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var'.split(
    ' ',
  ),
);
/** Names the generated bodies use themselves. */
const RESERVED_ARGS = new Set([
  'ctx',
  'opts',
  'params',
  'body',
  'content',
  'contentType',
  'out',
  'err',
  'path',
  'r',
]);

/** A query flag the server reads as `true`/`false` (or `1`/`0`) is a bool to a caller. */
const FLAG_VALUES = new Set(['0', '1', 'true', 'false']);

function queryType(types: GoTypes, parameter: Parameter, context: string): string {
  const values = parameter.schema?.enum;
  if (values?.length && values.every((value) => FLAG_VALUES.has(String(value)))) return 'bool';
  const type = types.type(parameter.schema, context);
  return ['string', 'int64', 'float64', 'bool'].includes(type) ? type : 'string';
}

/** The params struct of an operation's query: `DataListParams`. */
export function paramsType(op: Operation): string {
  return `${pascalCase(op.id)}Params`;
}

/** The params struct and its `query` method, for an operation with query parameters. */
export function paramsDeclaration(types: GoTypes, op: Operation): string {
  const name = paramsType(op);
  const fields: string[] = [];
  const sets: string[] = [];
  for (const p of op.queryParams) {
    const field = goFieldName(p.name);
    const type = queryType(types, p, `${name}${field}`);
    if (p.description) fields.push(`\t// ${commentText(p.description)}`);
    fields.push(`\t${field} ${p.required ? type : `*${type}`}`);
    sets.push(`\t${p.required ? 'setQueryValue' : 'setQuery'}(q, ${goString(p.name)}, p.${field})`);
  }
  return [
    `// ${name}: the query of ${op.id}; a nil field is not sent.`,
    `type ${name} struct {`,
    ...fields,
    '}',
    '',
    `func (p *${name}) query() url.Values {`,
    '\tq := url.Values{}',
    '\tif p == nil {',
    '\t\treturn q',
    '\t}',
    ...sets,
    '\treturn q',
    '}',
  ].join('\n');
}

/** How a body of this schema is taken: a struct by value, anything free-form as `any` (a map or a struct). */
function bodyType(types: GoTypes, op: Operation, schema: Schema): string {
  const type = types.type(schema, `${pascalCase(op.id)}Body`);
  return types.structs.has(type) ||
    /^\[\]/.test(type) ||
    ['string', 'int64', 'float64', 'bool'].includes(type)
    ? type
    : 'any';
}

function resultType(types: GoTypes, op: Operation): { type: string; pointer: boolean } {
  if (op.result.kind === 'page')
    return { type: types.type(op.result.item, `${pascalCase(op.id)}Item`), pointer: false };
  if (op.result.kind !== 'json' || !op.result.schema) return { type: 'any', pointer: false };
  const type = types.type(op.result.schema, `${pascalCase(op.id)}Result`);
  return { type, pointer: types.structs.has(type) };
}

/** One method (two for a list: the items, and the first page). */
export function methods(types: GoTypes, op: Operation, resource: string): string {
  const name = goFieldName(op.name);
  const args = ['ctx context.Context', ...op.pathParams.map((p) => `${argName(p.name)} string`)];
  const fields = [`method: ${goString(op.method)}`, 'path: path'];
  if (op.body.kind === 'json') {
    const type = bodyType(types, op, op.body.schema);
    const optional = !op.body.required && type !== 'any';
    args.push(`body ${optional ? `*${type}` : type}`);
    fields.push(optional ? 'body: optionalBody(body)' : 'body: body');
  }
  if (op.body.kind === 'raw') {
    args.push('content io.Reader', 'contentType string');
    fields.push('content: content', 'contentType: contentType');
  }
  if (op.queryParams.length > 0) {
    args.push(`params *${paramsType(op)}`);
    fields.push('query: params.query()');
  }
  args.push('opts ...Option');
  const pathArgs = op.pathParams.map((p) => `, ${argName(p.name)}`).join('');
  const pathLine = `path, err := buildPath(${goString(op.path)}${pathArgs})`;
  const summary = `${commentText(op.summary)} (\`${op.method} ${op.path}\`).`;
  const receiver = `func (r *${resource})`;
  const call = `&call{${fields.join(', ')}}`;
  const signature = args.join(', ');
  switch (op.result.kind) {
    case 'page': {
      const { type } = resultType(types, op);
      return [
        `// ${name}: ${summary} Ranging over it walks every item of every page.`,
        `${receiver} ${name}(${signature}) iter.Seq2[${type}, error] {`,
        `\t${pathLine}`,
        `\treturn items[${type}](ctx, r.client, ${call}, err, opts)`,
        '}',
        '',
        `// ${name}Page: the first page of ${name}; Page.Next fetches the ones after it.`,
        `${receiver} ${name}Page(${signature}) (*Page[${type}], error) {`,
        `\t${pathLine}`,
        '\tif err != nil {',
        '\t\treturn nil, err',
        '\t}',
        `\treturn firstPage[${type}](ctx, r.client, ${call}, opts)`,
        '}',
      ].join('\n');
    }
    case 'events':
      return [
        `// ${name}: ${summary} Never retried: resume with WithLastEventID.`,
        `${receiver} ${name}(${signature}) iter.Seq2[ServerSentEvent, error] {`,
        `\t${pathLine}`,
        `\treturn r.client.events(ctx, ${call}, err, opts)`,
        '}',
      ].join('\n');
    case 'redirect':
      return [
        `// ${name}: ${summary} Returns the redirect's Location.`,
        `${receiver} ${name}(${signature}) (string, error) {`,
        `\t${pathLine}`,
        '\tif err != nil {',
        '\t\treturn "", err',
        '\t}',
        `\treturn r.client.location(ctx, ${call}, opts)`,
        '}',
      ].join('\n');
    case 'json': {
      const { type, pointer } = resultType(types, op);
      const out = pointer ? `*${type}` : type;
      return [
        `// ${name}: ${summary}`,
        `${receiver} ${name}(${signature}) (${out}, error) {`,
        pointer ? `\tout := new(${type})` : `\tvar out ${type}`,
        `\t${pathLine}`,
        '\tif err != nil {',
        `\t\treturn ${pointer ? 'nil' : 'out'}, err`,
        '\t}',
        pointer
          ? `\tif err := r.client.call(ctx, ${call}, out, opts); err != nil {\n\t\treturn nil, err\n\t}\n\treturn out, nil`
          : `\terr = r.client.call(ctx, ${call}, &out, opts)\n\treturn out, err`,
        '}',
      ].join('\n');
    }
  }
}

/** The struct of one resource, its constructor and methods, after those of its nested resources. */
export function resourceDeclarations(types: GoTypes, resource: Resource): string[] {
  const out: string[] = [];
  for (const child of resource.children.values()) out.push(...resourceDeclarations(types, child));
  const name = resourceType(resource.path);
  const children = [...resource.children.entries()];
  const lines = [
    `// ${name} is \`client.${resource.path.map(goFieldName).join('.')}\`: ${resource.operations.length} operation(s) of the contract.`,
    `type ${name} struct {`,
    '\tclient *Client',
    ...children.map(([childName, child]) => `\t${goFieldName(childName)} *${resourceType(child.path)}`),
    '}',
    '',
    `func new${name}(c *Client) *${name} {`,
    `\treturn &${name}{client: c${children.map(([childName, child]) => `, ${goFieldName(childName)}: new${resourceType(child.path)}(c)`).join('')}}`,
    '}',
  ];
  for (const op of resource.operations) {
    if (op.queryParams.length > 0) lines.push('', paramsDeclaration(types, op));
    lines.push('', methods(types, op, name));
  }
  out.push(lines.join('\n'));
  return out;
}
