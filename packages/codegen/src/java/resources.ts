import { pascalCase } from '../names.js';
import type { OpenAPIDocument, Parameter, Schema } from '../openapi.js';
import type { Operation, Resource } from '../operations.js';
import { docText, HEADER, inlineBodyName, isRecord, javaName, javaType, modelRef } from './types.js';

/** The class of a resource: `DataJobsResource`. */
export function resourceClass(path: string[]): string {
  return `${pascalCase(path.join('.'))}Resource`;
}

/** The class of an operation's optional query parameters: `DataListParams`. */
export function paramsClass(op: Operation): string {
  return `${pascalCase(op.id)}Params`;
}

/** A query flag the server reads as `true`/`false` (or `1`/`0`) is a Boolean to a caller. */
const FLAG_VALUES = new Set(['0', '1', 'true', 'false']);

function paramType(doc: OpenAPIDocument, parameter: Parameter): string {
  const values = parameter.schema?.enum;
  if (values?.length && values.every((value) => FLAG_VALUES.has(String(value)))) return 'Boolean';
  return javaType(doc, parameter.schema, modelRef);
}

function bodyType(doc: OpenAPIDocument, op: Operation, schema: Schema): string {
  // An inline object body is named among the models (see javaClient's `inline`).
  return !schema.$ref && isRecord(schema) ? inlineBodyName(op.id) : javaType(doc, schema, modelRef);
}

function resultType(doc: OpenAPIDocument, op: Operation): string {
  switch (op.result.kind) {
    case 'page':
      return `Page<${javaType(doc, op.result.item, modelRef)}>`;
    case 'events':
      return 'EventStream';
    case 'redirect':
      return 'Optional<String>';
    case 'json':
      return javaType(doc, op.result.schema, modelRef);
  }
}

/** The Java expression of an operation's path, each parameter percent-encoded by `ApiClient.segment`. */
function pathExpression(op: Operation): string {
  const parts = op.path.split(/\{(\w+)\}/);
  const pieces = parts.map((part, i) =>
    i % 2 === 0 ? JSON.stringify(part) : `ApiClient.segment(${javaName(part)}, ${JSON.stringify(part)})`,
  );
  return pieces.filter((piece) => piece !== '""').join(' + ');
}

interface Argument {
  type: string;
  name: string;
  /** Left out of the short overload (passed as null). */
  optional: boolean;
}

/** The arguments of an operation's full method, in order. */
function argumentsOf(doc: OpenAPIDocument, op: Operation): Argument[] {
  const args: Argument[] = op.pathParams.map((p) => ({
    type: 'String',
    name: javaName(p.name),
    optional: false,
  }));
  for (const p of op.queryParams.filter((q) => q.required)) {
    args.push({ type: paramType(doc, p), name: javaName(p.name), optional: false });
  }
  if (op.body.kind === 'json') {
    args.push({ type: bodyType(doc, op, op.body.schema), name: 'body', optional: !op.body.required });
  }
  if (op.body.kind === 'raw') {
    args.push({ type: 'byte[]', name: 'content', optional: false });
    args.push({ type: 'String', name: 'contentType', optional: false });
  }
  if (op.queryParams.some((q) => !q.required))
    args.push({ type: paramsClass(op), name: 'params', optional: true });
  if (op.result.kind === 'events') args.push({ type: 'String', name: 'lastEventId', optional: true });
  args.push({ type: 'RequestOptions', name: 'options', optional: true });
  return args;
}

/** The methods of one operation: the call it builds, then its blocking and async flavours. */
function methods(doc: OpenAPIDocument, op: Operation): string[] {
  const name = javaName(op.name);
  const args = argumentsOf(doc, op);
  const result = resultType(doc, op);
  const signature = (list: Argument[]) => list.map((a) => `${a.type} ${a.name}`).join(', ');
  const names = (list: Argument[]) => list.map((a) => a.name).join(', ');
  const short = args.filter((a) => !a.optional);
  const shortCall = args.map((a) => (a.optional ? 'null' : a.name)).join(', ');
  const summary = `${docText(op.summary)}: {@code ${op.method} ${docText(op.path)}}.`;
  const constant = `${javaName(op.name)
    .replace(/_$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toUpperCase()}_TYPE`;

  const call: string[] = [`client.call(${JSON.stringify(op.method)}, ${pathExpression(op)})`];
  for (const p of op.queryParams) {
    const value = p.required ? javaName(p.name) : `params == null ? null : params.${javaName(p.name)}()`;
    call.push(`.query(${JSON.stringify(p.name)}, ${value})`);
  }
  if (op.body.kind === 'json') call.push('.json(body)');
  if (op.body.kind === 'raw') call.push('.content(content, contentType)');
  call.push('.options(options)');
  const out: string[] = [];
  const builder = `${name.replace(/_$/, '')}Call`;
  out.push(
    `  private Call ${builder}(${signature(args.filter((a) => a.name !== 'lastEventId'))}) {`,
    `    return ${call.join('\n        ')};`,
    '  }',
  );
  const builderArgs = names(args.filter((a) => a.name !== 'lastEventId'));

  let send: string;
  let sendAsync: string | null;
  switch (op.result.kind) {
    case 'events':
      send = `${builder}(${builderArgs}).events(lastEventId)`;
      sendAsync = null;
      break;
    case 'redirect':
      send = `${builder}(${builderArgs}).location()`;
      sendAsync = `${builder}(${builderArgs}).locationAsync()`;
      break;
    case 'page': {
      const item = javaType(doc, op.result.item, modelRef);
      out.unshift(
        `  private static final TypeReference<${item}> ${constant} = new TypeReference<>() {};`,
        '',
      );
      send = `${builder}(${builderArgs}).page(${constant})`;
      sendAsync = `${builder}(${builderArgs}).pageAsync(${constant})`;
      break;
    }
    case 'json':
      out.unshift(
        `  private static final TypeReference<${result}> ${constant} = new TypeReference<>() {};`,
        '',
      );
      send = `${builder}(${builderArgs}).fetch(${constant})`;
      sendAsync = `${builder}(${builderArgs}).fetchAsync(${constant})`;
  }
  const flavours: [string, string, string | null][] = [[result, name, send]];
  if (sendAsync) flavours.push([`CompletableFuture<${result}>`, `${name.replace(/_$/, '')}Async`, sendAsync]);
  for (const [type, method, body] of flavours) {
    out.push(
      '',
      `  /** ${summary}${method.endsWith('Async') ? ' Does not block.' : ''} */`,
      `  public ${type} ${method}(${signature(args)}) {`,
      `    return ${body};`,
      '  }',
    );
    if (short.length < args.length) {
      out.push(
        '',
        `  /** ${summary}${method.endsWith('Async') ? ' Does not block.' : ''} */`,
        `  public ${type} ${method}(${signature(short)}) {`,
        `    return ${method}(${shortCall});`,
        '  }',
      );
    }
  }
  return out;
}

/** The file of one resource's class: its nested resources, then one group of methods per operation. */
export function resourceFile(doc: OpenAPIDocument, resource: Resource): string {
  const name = resourceClass(resource.path);
  const children = [...resource.children.entries()].map(([child, node]) => ({
    accessor: javaName(child),
    cls: resourceClass(node.path),
  }));
  const accessors = new Set(children.map((c) => c.accessor));
  for (const op of resource.operations) {
    if (accessors.has(javaName(op.name))) throw new Error(`${op.id}: clashes with the resource of that name`);
  }
  const body = [
    ...children.flatMap((c) => [
      '',
      `  /** {@code client.${[...resource.path, c.accessor].map(javaName).join('().')}()}. */`,
      `  public ${c.cls} ${c.accessor}() {`,
      `    return ${c.accessor};`,
      '  }',
    ]),
    ...resource.operations.flatMap((op) => ['', ...methods(doc, op)]),
  ];
  const text = body.join('\n');
  const imports = [
    ['com.fasterxml.jackson.core.type.TypeReference', /\bTypeReference\b/],
    ['dev.dataplatform.ApiClient', /./],
    ['dev.dataplatform.Call', /./],
    ['dev.dataplatform.EventStream', /\bEventStream\b/],
    ['dev.dataplatform.Page', /\bPage</],
    ['dev.dataplatform.RequestOptions', /./],
    ['dev.dataplatform.models.*', /./],
    ['java.util.List', /\bList</],
    ['java.util.Map', /\bMap</],
    ['java.util.Optional', /\bOptional</],
    ['java.util.concurrent.CompletableFuture', /\bCompletableFuture</],
  ] as const;
  return [
    HEADER,
    'package dev.dataplatform.resources;',
    '',
    ...imports.filter(([, used]) => used.test(text)).map(([path]) => `import ${path};`),
    '',
    `/** {@code client.${resource.path.map(javaName).join('().')}()}: ${resource.operations.length} operation(s) of the contract. */`,
    `public final class ${name} {`,
    '  private final ApiClient client;',
    ...children.map((c) => `  private final ${c.cls} ${c.accessor};`),
    '',
    '  /** Made by the client: reach it through {@code DataPlatform}. */',
    `  public ${name}(ApiClient client) {`,
    '    this.client = client;',
    ...children.map((c) => `    this.${c.accessor} = new ${c.cls}(client);`),
    '  }',
    ...body,
    '}',
    '',
  ].join('\n');
}

/** The class of an operation's optional query parameters: set those needed, fluently. */
export function paramsFile(doc: OpenAPIDocument, op: Operation): string {
  const name = paramsClass(op);
  const fields = op.queryParams
    .filter((p) => !p.required)
    .map((p) => ({
      name: javaName(p.name),
      key: p.name,
      type: paramType(doc, p),
      doc: docText(p.description ?? `the ${p.name} query parameter`),
    }));
  const text = fields.map((f) => f.type).join(' ');
  return [
    HEADER,
    'package dev.dataplatform.resources;',
    '',
    ...(/\bList</.test(text) ? ['import java.util.List;'] : []),
    ...(/\bMap</.test(text) ? ['import java.util.Map;'] : []),
    ...(/\b(List|Map)</.test(text) ? [''] : []),
    `/** The optional query parameters of {@code ${op.id}}: set those needed, as in {@code new ${name}().${fields[0]!.name}(…)}. */`,
    `public final class ${name} {`,
    ...fields.map((f) => `  private ${f.type} ${f.name};`),
    ...fields.flatMap((f) => [
      '',
      `  /** Sets {@code ${f.key}}: ${f.doc}; null leaves it out. */`,
      `  public ${name} ${f.name}(${f.type} ${f.name}) {`,
      `    this.${f.name} = ${f.name};`,
      '    return this;',
      '  }',
      '',
      `  /** The {@code ${f.key}} set, or null. */`,
      `  public ${f.type} ${f.name}() {`,
      `    return ${f.name};`,
      '  }',
    ]),
    '}',
    '',
  ].join('\n');
}
